import { specifyRoutes } from '../route-spec';

// The routes of features/resellers, walked from the route registry (route-spec.ts). The fixtures'
// admin is no reseller and their portal has none: resellers.test.ts opens an account and links it.
const noAccount = { status: [404], why: 'the caller has no reseller account: resellers.test.ts' };
await specifyRoutes('resellers', {
  answers: {
    'GET /api3/reseller': noAccount,
    'GET /api3/reseller/billingSummary': noAccount,
    'GET /api3/reseller/billingSummary/:year/:month': noAccount,
    'DELETE /api3/portal/reseller': { status: [404], why: 'the portal has no reseller: resellers.test.ts' },
  },
});
