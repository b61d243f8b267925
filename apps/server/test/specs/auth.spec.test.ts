import crypto from 'node:crypto';
import { FACTORY_PASSWORD } from '../factories';
import { specifyRoutes } from '../route-spec';

// The routes of features/auth, walked from the route registry (route-spec.ts). The password
// change, resets and two-factor routes take mailed tokens or end the session walked with:
// auth.test.ts, account-recovery.test.ts and two-factor.test.ts follow them through.
const newAddress = () => `person-${crypto.randomUUID().slice(0, 8)}@example.com`;
await specifyRoutes('auth', {
  examples: {
    'POST /api3/auth/create': (_tenant, t) => ({
      payload: t.seal({ email: newAddress(), password: FACTORY_PASSWORD, firstName: 'New' }),
    }),
    'POST /api3/auth/secure/login': (tenant, t) => ({
      payload: t.seal({ email: tenant.adminEmail, password: FACTORY_PASSWORD }),
    }),
    'POST /api3/auth/profile': () => ({ payload: { firstName: 'Renamed', lastName: 'Person' } }),
    'POST /api3/auth/passwordVerify': (_tenant, t) => ({ payload: t.seal({ password: FACTORY_PASSWORD }) }),
    'POST /api3/auth/email': (_tenant, t) => ({
      payload: t.seal({ newEmail: newAddress(), password: FACTORY_PASSWORD }),
    }),
    'POST /api3/user/:id/session': () => ({ payload: { originUrl: '/admin/users' } }),
  },
  answers: {
    'POST /api3/auth/verify': { status: [400], why: 'it takes the mailed token in its query: auth.test.ts' },
  },
});
