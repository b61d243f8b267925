import { specifyRoutes } from '../route-spec';

// The routes of features/alerts, walked from the route registry (route-spec.ts).
await specifyRoutes('alerts');
