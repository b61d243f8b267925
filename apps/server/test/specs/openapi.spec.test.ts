import { specifyRoutes } from '../route-spec';

// The API document and its browsable page (base/http/openapi.ts), walked from the route registry
// (route-spec.ts).
await specifyRoutes('openapi', {
  answers: {
    'GET /api3/docs/static/index.html': { status: [302], why: 'the page lives at /api3/docs' },
  },
});
