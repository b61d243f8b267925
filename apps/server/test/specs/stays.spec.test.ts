import { specifyRoutes } from '../route-spec';

/** The UTC date `days` from today. */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

// The routes of features/stays, walked from the route registry (route-spec.ts).
await specifyRoutes('stays', {
  examples: {
    'POST /api3/device/:listingId/request': () => ({
      payload: { name: 'Guest', email: 'next-guest@example.com', startDate: inDays(60), endDate: inDays(62) },
    }),
  },
});
