import { specifyRoutes } from '../route-spec';

// The routes of features/billing, walked from the route registry (route-spec.ts).
await specifyRoutes('billing', {
  examples: {
    'POST /api3/portal/billing/profile': () => ({
      payload: {
        name: 'Flat Co',
        addressLine1: 'Street 1',
        postalCode: '10115',
        city: 'Berlin',
        country: 'DE',
      },
    }),
  },
});
