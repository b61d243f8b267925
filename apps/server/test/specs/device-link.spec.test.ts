import { specifyRoutes } from '../route-spec';

// The routes of features/device-link, walked from the route registry (route-spec.ts). Commands
// reach a connected lock in device-link.test.ts.
await specifyRoutes('device-link', {
  examples: {
    'POST /api3/device/:id/synclock/user/token': () => ({ payload: {} }),
  },
  asBasicUser: ['POST /api3/device/:id/synclock/user/token'],
  answers: {
    'GET /api3/device/:id/command/:commandId': {
      status: [404],
      why: 'the fixtures send no command: device-link.test.ts follows one',
    },
  },
});
