import crypto from 'node:crypto';
import { specifyRoutes } from '../route-spec';

// The routes of features/invitations, walked from the route registry (route-spec.ts). The
// fixtures' member has accepted already; invitations.test.ts follows one from the mail.
await specifyRoutes('invitations', {
  examples: {
    'POST /api3/user/invite': () => ({
      payload: { email: `invited-${crypto.randomUUID().slice(0, 8)}@example.com`, firstName: 'Invited' },
    }),
  },
  answers: {
    'POST /api3/user/re-invite/:id': { status: [409], why: 'the member has accepted already' },
    'POST /api3/portal/user/portal/:id/decline': { status: [409], why: 'the admin is a member already' },
  },
});
