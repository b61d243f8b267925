import crypto from 'node:crypto';
import { specifyRoutes } from '../route-spec';

// The routes of features/members, walked from the route registry (route-spec.ts).
await specifyRoutes('members', {
  examples: {
    'POST /api3/portal/user': () => ({
      payload: { email: `added-${crypto.randomUUID().slice(0, 8)}@example.com`, firstName: 'Added' },
    }),
  },
});
