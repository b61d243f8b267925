import { specifyRoutes } from '../route-spec';

// The routes of features/lockouts, walked from the route registry (route-spec.ts).
await specifyRoutes('lockouts');
