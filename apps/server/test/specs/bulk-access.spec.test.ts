import { specifyRoutes } from '../route-spec';

// The routes of features/bulk-access, walked from the route registry (route-spec.ts). All or
// nothing with another portal's id among many, and the locks' sync state: test/bulk-access.test.ts.
await specifyRoutes('bulk-access');
