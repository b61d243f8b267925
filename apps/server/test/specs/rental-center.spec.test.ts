import { specifyRoutes } from '../route-spec';

// The routes of features/rental-center, walked from the route registry (route-spec.ts).
await specifyRoutes('rental-center');
