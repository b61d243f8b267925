import { specifyRoutes } from '../route-spec';

// The routes of features/public-listing, walked from the route registry (route-spec.ts).
await specifyRoutes('public-listing');
