import { specifyRoutes } from '../route-spec';

// The routes of features/credentials, walked from the route registry (route-spec.ts).
await specifyRoutes('credentials', {
  examples: {
    // A card's number cannot change: the edit names the card's own.
    'POST /api3/portal/rfid/:id': (tenant) => ({
      payload: { uid: tenant.rfidUid, userId: tenant.userId, name: 'Blue card' },
    }),
  },
});
