import { specifyRoutes } from '../route-spec';

// The routes of features/portals, walked from the route registry (route-spec.ts).
await specifyRoutes('portals', {
  examples: {
    'POST /api3/portal/data': () => ({ payload: { name: 'Renamed portal', timeZone: 'Europe/Berlin' } }),
  },
  asBasicUser: ['POST /api3/user/:id/portal'],
  unknownIds: {
    'GET /api3/portal/user/portal/current/:id': {
      status: [403],
      why: "the caller's memberships are asked, not the portals",
    },
    'POST /api3/user/:id/portal': { status: [403], why: 'a person starts a portal only for themselves' },
  },
});
