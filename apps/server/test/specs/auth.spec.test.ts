import { FACTORY_PASSWORD } from '../factories';
import { specifyRoutes } from '../route-spec';

// The routes of features/auth, walked from the route registry (route-spec.ts). Sign-up, sign-in
// and the password routes take sealed bodies and mailed tokens: auth.test.ts, account-recovery.test.ts
// and two-factor.test.ts follow them through.
await specifyRoutes('auth', {
  examples: {
    'POST /api3/auth/profile': () => ({ payload: { firstName: 'Renamed', lastName: 'Person' } }),
    'POST /api3/auth/passwordVerify': (_tenant, t) => ({ payload: t.seal({ password: FACTORY_PASSWORD }) }),
    'POST /api3/user/:id/session': () => ({ payload: { originUrl: '/admin/users' } }),
  },
  answers: {
    'POST /api3/auth/verify': { status: [400], why: 'it takes the mailed token in its query: auth.test.ts' },
  },
});
