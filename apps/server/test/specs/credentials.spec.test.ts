import crypto from 'node:crypto';
import { specifyRoutes } from '../route-spec';

// The routes of features/credentials, walked from the route registry (route-spec.ts).
await specifyRoutes('credentials', {
  examples: {
    'POST /api3/device/codelock/add': () => ({
      payload: { name: 'Shed', code: String(crypto.randomInt(1000, 9999)) },
    }),
    'POST /api3/portal/code/company': () => ({
      payload: { name: 'Post', code: String(crypto.randomInt(10_000_000, 99_999_999)) },
    }),
    // A card's number cannot change: the edit names the card's own.
    'POST /api3/portal/rfid/:id': (tenant) => ({
      payload: { uid: tenant.rfidUid, userId: tenant.userId, name: 'Blue card' },
    }),
  },
});
