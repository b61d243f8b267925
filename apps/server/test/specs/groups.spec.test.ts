import { specifyRoutes } from '../route-spec';

// The routes of features/groups, walked from the route registry (route-spec.ts).
await specifyRoutes('groups', {
  examples: {
    'POST /api3/portal/group': () => ({ payload: { name: 'Cleaners' } }),
  },
});
