import { specifyRoutes } from '../route-spec';

// The routes of features/client-errors, walked from the route registry (route-spec.ts). The
// fixtures' portals each sent one report (fixtures.ts): the staff routes read and resolve it.
await specifyRoutes('client-errors');
