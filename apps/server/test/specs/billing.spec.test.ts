import { specifyRoutes } from '../route-spec';

// The routes of features/billing, walked from the route registry (route-spec.ts).
await specifyRoutes('billing');
