import { specifyRoutes } from '../route-spec';

// The routes of features/dev-tools, walked from the route registry (route-spec.ts). The console's
// declared example (GET portal/devices) succeeds as staff whatever the inner call answers (staff
// have no portal of their own: the inner 403 is data); the seal check needs a fresh envelope.
// dev-tools.test.ts follows the inner calls, the refusals, the audit and the limits through.
await specifyRoutes('dev-tools', {
  examples: {
    'POST /api3/about/sealCheck': (_tenant, t) => ({ payload: t.seal({ probe: 'route spec probe' }) }),
  },
});
