import { specifyRoutes } from '../route-spec';

// The routes of features/stays, walked from the route registry (route-spec.ts).
await specifyRoutes('stays');
