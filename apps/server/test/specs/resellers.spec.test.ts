import crypto from 'node:crypto';
import { FACTORY_PASSWORD } from '../factories';
import { specifyRoutes } from '../route-spec';

// The routes of features/resellers, walked from the route registry (route-spec.ts): the fixtures'
// admin opens a reseller account (POST reseller/new, walked first) and adds a customer; their own
// portal has no reseller to link or unlink (resellers.test.ts links one with its code).
const notLinked = { status: [404], why: 'the portal has no reseller: resellers.test.ts links one' };
await specifyRoutes('resellers', {
  examples: {
    'POST /api3/reseller/signup': (_tenant, t) => ({
      payload: t.seal({
        email: `reseller-${crypto.randomUUID().slice(0, 8)}@example.com`,
        password: FACTORY_PASSWORD,
        companyName: 'Signed Up Co',
        country: 'DE',
      }),
    }),
    'POST /api3/reseller/new': () => ({ payload: { companyName: 'Resell Co', country: 'DE' } }),
    'POST /api3/reseller/customer': () => ({
      payload: {
        portalName: 'Customer',
        adminEmail: `customer-${crypto.randomUUID().slice(0, 8)}@example.com`,
      },
    }),
    'POST /api3/portal/reseller': () => ({ payload: { code: 'ABCD2345' } }),
    'POST /api3/portal/reseller/acting': () => ({ payload: { allowActing: true } }),
  },
  answers: {
    'POST /api3/portal/reseller': { status: [400], why: 'no reseller has that code: resellers.test.ts' },
    'POST /api3/portal/reseller/acting': notLinked,
    'DELETE /api3/portal/reseller': notLinked,
  },
});
