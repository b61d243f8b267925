import { specifyRoutes } from '../route-spec';

// The routes of features/invites, walked from the route registry (route-spec.ts).
await specifyRoutes('invites', {
  examples: {
    // The change keeps the guest's address, so the resend walked after it has one to mail.
    'POST /api3/device/:id/invite/:inviteId': () => ({
      payload: {
        name: 'Guest',
        email: 'invited-guest@example.com',
        days: [1, 2],
        start: '09:00',
        end: '17:00',
        startDate: '2030-01-01',
        endDate: '2030-01-31',
      },
    }),
  },
});
