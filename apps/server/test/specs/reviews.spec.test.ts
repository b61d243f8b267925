import { specifyRoutes } from '../route-spec';

// The routes of features/reviews, walked from the route registry (route-spec.ts).
await specifyRoutes('reviews');
