import { TINY_PNG } from '../fixtures';
import { specifyRoutes } from '../route-spec';
import { multipartBody } from '../support-helpers';

// The routes of features/support, walked from the route registry (route-spec.ts). The fixtures'
// portals each hold a request their basic user filed with an image (fixtures.ts, `support`).
await specifyRoutes('support', {
  examples: {
    // An upload: the request's fields and an image as multipart/form-data, as the web app sends it.
    'POST /api3/portal/support': () =>
      multipartBody({ type: 'lock', description: 'The door sticks', navId: '/user/device/1' }, [
        { bytes: TINY_PNG },
      ]),
  },
  // Any member files one: its right caller is the basic user, as for most requests.
  asBasicUser: ['POST /api3/portal/support'],
});
