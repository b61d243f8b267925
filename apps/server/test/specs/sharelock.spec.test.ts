import { TINY_PNG } from '../fixtures';
import { specifyRoutes } from '../route-spec';

// The routes of features/sharelock, walked from the route registry (route-spec.ts).
await specifyRoutes('sharelock', {
  examples: {
    'POST /api3/device/:id/sharelock/landing/image': () => ({
      payload: TINY_PNG,
      headers: { 'content-type': 'image/png' },
    }),
  },
});
