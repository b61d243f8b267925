import { specifyRoutes } from '../route-spec';

// The routes of features/mail, walked from the route registry (route-spec.ts).
await specifyRoutes('mail');
