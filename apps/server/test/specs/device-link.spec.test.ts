import { specifyRoutes } from '../route-spec';

// The routes of features/device-link, walked from the route registry (route-spec.ts). Commands
// reach a connected lock in device-link.test.ts.
await specifyRoutes('device-link', {
  examples: {
    'POST /api3/device/:id/synclock/user/token': () => ({ payload: {} }),
  },
  asBasicUser: ['POST /api3/device/:id/synclock/user/token'],
  answers: {
    'POST /api3/device/:id/command': {
      status: [409],
      why: 'the fixtures’ locks never connected, so the command is refused at once: device-link.test.ts sends one to a connected lock',
    },
    'GET /api3/device/:id/command/:commandId': {
      status: [404],
      why: 'the fixtures send no command: device-link.test.ts follows one',
    },
  },
});
