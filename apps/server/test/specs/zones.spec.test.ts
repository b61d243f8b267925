import { specifyRoutes } from '../route-spec';

// The routes of features/zones, walked from the route registry (route-spec.ts). The fixtures' zone
// holds each portal's lock, so locking it out and moving the lock succeed as declared.
await specifyRoutes('zones', {
  examples: {
    'POST /api3/portal/zone': () => ({ payload: { name: 'Annex', timeZone: 'Europe/Berlin' } }),
  },
});
