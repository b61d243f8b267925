import { specifyRoutes } from '../route-spec';

// The routes of features/events, walked from the route registry (route-spec.ts).
await specifyRoutes('events');
