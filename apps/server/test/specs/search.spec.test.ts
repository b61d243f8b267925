import { specifyRoutes } from '../route-spec';

// The routes of features/search, walked from the route registry (route-spec.ts). What the search
// finds, that another portal's records never appear and its query plans: test/search.test.ts.
await specifyRoutes('search', {
  answers: {
    'GET /api3/portal/search': {
      status: [400],
      why: 'the walker sends no query and a search needs q; test/search.test.ts searches with one',
    },
  },
});
