import { specifyRoutes } from '../route-spec';

// The routes of features/access, walked from the route registry (route-spec.ts).
await specifyRoutes('access');
