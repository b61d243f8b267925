import { specifyRoutes } from '../route-spec';

// The routes of features/platform (the console, issue 20 item 1), walked from the route registry
// (route-spec.ts): platform staff on system/*, any signed-in person on GET system/features, a
// member on GET portal/supportSession. platform.test.ts holds their rules.
await specifyRoutes('platform', {
  answers: {
    'POST /api3/system/work/retry': {
      status: [404],
      why: 'the example names no mail of the outbox: platform.test.ts retries a failed one',
    },
  },
});
