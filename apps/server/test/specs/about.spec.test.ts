import { specifyRoutes } from '../route-spec';

// The routes of features/about, walked from the route registry (route-spec.ts).
await specifyRoutes('about');
