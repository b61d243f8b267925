import { specifyRoutes } from '../route-spec';

// The routes of features/devices, walked from the route registry (route-spec.ts).
await specifyRoutes('devices', {
  examples: {
    'POST /api3/portal/device/new': () => ({
      payload: { name: 'Back door', model: 'latchkey-sim', timeZone: 'Europe/Berlin' },
    }),
  },
});
