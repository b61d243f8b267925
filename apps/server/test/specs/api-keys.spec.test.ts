import { specifyRoutes } from '../route-spec';

// The routes of features/api-keys, walked from the route registry (route-spec.ts). A new key names
// no record, so its example is given here (a declared example is taken to name another portal's ids).
await specifyRoutes('api-keys', {
  examples: {
    'POST /api3/portal/apikeys': () => ({
      payload: { name: 'PMS sync', scopes: ['devices:read', 'people:write'] },
    }),
  },
});
