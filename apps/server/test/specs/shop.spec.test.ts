import { seedCatalogue } from '../../src/features/shop/catalogue';
import { specifyRoutes } from '../route-spec';

// The routes of features/shop, walked from the route registry (route-spec.ts), over the demo
// catalogue.
await specifyRoutes('shop', {
  setup: (t) => seedCatalogue(t.app.db),
});
