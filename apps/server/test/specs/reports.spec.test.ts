import { specifyRoutes } from '../route-spec';

// The routes of features/reports, walked from the route registry (route-spec.ts).
await specifyRoutes('reports');
