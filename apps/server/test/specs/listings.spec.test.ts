import { TINY_PNG } from '../fixtures';
import { specifyRoutes } from '../route-spec';

// The routes of features/listings, walked from the route registry (route-spec.ts).
await specifyRoutes('listings', {
  examples: {
    'POST /api3/listingCategory/new': () => ({ payload: { name: 'Houses' } }),
    'POST /api3/listing/:id/image': () => ({ payload: TINY_PNG, headers: { 'content-type': 'image/png' } }),
  },
});
