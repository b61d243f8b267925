import { specifyRoutes } from '../route-spec';

// The routes of features/calendars, walked from the route registry (route-spec.ts).
await specifyRoutes('calendars');
