import { specifyRoutes } from '../route-spec';

// The routes of features/dashboard, walked from the route registry (route-spec.ts).
await specifyRoutes('dashboard');
