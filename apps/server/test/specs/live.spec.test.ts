import { specifyRoutes } from '../route-spec';

// The route of features/live, walked from the route registry (route-spec.ts). The channel itself
// is a WebSocket: live.test.ts and isolation.test.ts talk to it.
await specifyRoutes('live', {
  answers: {
    'GET /api3/live': { status: [404], why: 'only a WebSocket upgrade reaches it: live.test.ts' },
  },
});
