import { specifyRoutes } from '../route-spec';

// The routes of features/audit, walked from the route registry (route-spec.ts).
await specifyRoutes('audit');
