import { specifyRoutes } from '../route-spec';

// The routes of features/readers, walked from the route registry (route-spec.ts). A real reader
// (packages/locksim's SimulatedReader) answers enrollments in readers.test.ts.
await specifyRoutes('readers', {
  examples: {
    'POST /api3/portal/reader': () => ({ payload: { name: 'Front desk', kind: 'both' } }),
  },
  answers: {
    'POST /api3/portal/reader/:id/enroll': {
      status: [201, 409],
      why: 'the fixtures’ reader said it was online once; after the heartbeat window it is offline and the request is refused (409): readers.test.ts enrolls on a connected reader',
    },
  },
});
