import { specifyRoutes } from '../route-spec';

// The routes of features/devices, walked from the route registry (route-spec.ts).
await specifyRoutes('devices');
