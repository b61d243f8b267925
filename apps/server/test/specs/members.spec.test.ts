import { specifyRoutes } from '../route-spec';

// The routes of features/members, walked from the route registry (route-spec.ts).
await specifyRoutes('members');
