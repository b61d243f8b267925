import { specifyRoutes } from '../route-spec';

// The routes of features/content, walked from the route registry (route-spec.ts). Pages are the
// deployment's (no portal's), so a topic names no fixture: the walk's topic is one no page has
// (404 where it is read before the walk's PUT saves it; its versions and restore come after). content.test.ts covers versions, restores,
// drafts and who may edit; the fixtures' admin has no reseller account to brand.
const noSuchTopic = {
  status: [404],
  why: 'the walk names a topic no page has: content.test.ts reads real ones',
};
await specifyRoutes('content', {
  answers: {
    'GET /api3/info/:topic': noSuchTopic,
    'GET /api3/content/pages/:topic': noSuchTopic,
    'PUT /api3/reseller/brand': {
      status: [404],
      why: 'no reseller account in the fixtures: content.test.ts',
    },
  },
});
