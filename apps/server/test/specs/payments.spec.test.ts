import { specifyRoutes } from '../route-spec';

// The routes of features/payments, walked from the route registry (route-spec.ts). Checkouts and
// signed webhooks: sandbox-checkout.ts, subscriptions.test.ts and shop.test.ts.
await specifyRoutes('payments', {
  answers: {
    'POST /api3/payments/webhook': {
      status: [400],
      why: 'only a signed event is taken: stripe-adapter.test.ts',
    },
  },
});
