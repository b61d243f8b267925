import { specifyRoutes } from '../route-spec';

// The routes of features/access-requests, walked from the route registry (route-spec.ts). Each
// fixture portal's basic user has one waiting request for its lock (fixtures.ts); the walk asks as
// the admin (a new request of their own), then grants the fixture's request.
await specifyRoutes('access-requests', {
  // Withdrawing is the requester's own act.
  asBasicUser: ['POST /api3/portal/accessRequest/:id/withdraw'],
  answers: {
    'POST /api3/portal/accessRequest/:id/decline': {
      status: [200, 409],
      why: 'the walk granted the fixture request first; a request is answered once (access-requests.test.ts declines a waiting one)',
    },
    'POST /api3/portal/accessRequest/:id/withdraw': {
      status: [200, 409],
      why: 'the fixture request was answered by the walk already (access-requests.test.ts withdraws a waiting one)',
    },
  },
});
