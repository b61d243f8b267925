import { specifyRoutes } from '../route-spec';

// The routes of features/subscriptions, walked from the route registry (route-spec.ts). The
// fixtures' portals are on the Free plan with no subscription: subscriptions.test.ts pays for one.
const noSubscription = { status: [409], why: 'the portal has no subscription: subscriptions.test.ts' };
await specifyRoutes('subscriptions', {
  examples: {
    'POST /api3/portal/subscription/checkout': () => ({ payload: { plan: 'pro' } }),
    'POST /api3/portal/subscription/plan': () => ({ payload: { plan: 'pro' } }),
    'POST /api3/portal/subscription/prepaid': () => ({ payload: { plan: 'pro', months: 3 } }),
  },
  answers: {
    'POST /api3/portal/subscription/plan': noSubscription,
    'POST /api3/portal/subscription/resume': noSubscription,
    'DELETE /api3/stripe/cancel': noSubscription,
    'POST /api3/portal/subscription/card': noSubscription,
    'POST /api3/portal/subscription/free': { status: [409], why: 'the portal is on the Free plan already' },
  },
});
