import { exampleEndpointBody } from '../../src/features/webhooks/webhooks.routes';
import { specifyRoutes } from '../route-spec';

// The routes of features/webhooks, walked from the route registry (route-spec.ts). Creating an
// endpoint names no record, so its body is an example here rather than the route's (an example
// in the route makes the walker expect a refusal with another portal's ids).
await specifyRoutes('webhooks', {
  examples: { 'POST /api3/portal/webhooks': () => ({ payload: exampleEndpointBody }) },
});
