import crypto from 'node:crypto';
import { seedCatalogue } from '../../src/features/shop/catalogue';
import { specifyRoutes } from '../route-spec';

// The routes of features/shop, walked from the route registry (route-spec.ts), over the demo
// catalogue.
await specifyRoutes('shop', {
  setup: (t) => seedCatalogue(t.app.db),
  examples: {
    'POST /api3/shop/quote': () => ({
      payload: { items: [{ productId: 'smart-lock', quantity: 1 }], country: 'DE' },
    }),
    'POST /api3/stripe/order': () => ({
      payload: {
        items: [{ productId: 'rfid-cards-10', quantity: 1 }],
        email: `buyer-${crypto.randomUUID().slice(0, 8)}@example.com`,
        address: { name: 'Buyer', line1: 'Street 1', postalCode: '10115', city: 'Berlin', country: 'DE' },
        shippingOption: 'standard',
      },
    }),
  },
});
