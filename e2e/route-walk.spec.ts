import { expect, test, type Page } from '@playwright/test';
import { demo, signIn } from './helpers';

// The route walk (issue 20, Tests: "Every brief screen route renders for a role that may use
// it"): every screen route of the brief's §2 (public, /app and its further child routes, /user,
// /auth, /sync, print and blank layouts), visited by a role that may use it with ids from the demo
// data, must show that screen: the route's own title (the route table's, in document.title), a
// first-level heading that is not the not-found page, an error boundary or "no access", and no
// console error or uncaught exception on the way. One sign-in per role, one page per role; a
// failing row is reported (soft) and the walk goes on.

type Role = 'public' | 'admin' | 'user' | 'staff' | 'newcomer';

/** Ids from the demo data, read through the API as the signed-in admin and basic user. */
interface Ids {
  deviceId: string;
  groupId: string;
  userId: string;
  lockoutId: string;
  fingerprintId: string;
  listingId: string;
  reqId: string;
  bill: { _id: string; year: number; month: number };
  portalId: string;
  lockId: string;
  /** The demo listing's share link (/s?t=…): its arrival page. */
  landingPath: string;
}

interface Row {
  /** The brief's route (§2), as it names it. */
  route: string;
  role: Role;
  /** The address visited. */
  path: (ids: Ids) => string;
  /** The screen's title (the route table's handle), as document.title starts. */
  title: string;
  /** Where it lands, when the route forwards (a redirect the brief's route makes). */
  url?: RegExp;
  /**
   * An API refusal the screen shows as its own content and the client logs (a dead link's 400):
   * the console error is expected for these rows only.
   */
  refusal?: RegExp;
  /** What the visit needs first (a cart and an address for the shipping step). */
  before?: (page: Page) => Promise<void>;
}

const ADMIN_ROWS: Row[] = [
  { route: '/app', role: 'admin', path: () => '/app', title: 'Dashboard', url: /\/app\/dashboard$/ },
  { route: '/app/dashboard', role: 'admin', path: () => '/app/dashboard', title: 'Dashboard' },
  { route: '/app/about', role: 'admin', path: () => '/app/about', title: 'About' },
  { route: '/app/activity', role: 'admin', path: () => '/app/activity', title: 'Activity' },
  { route: '/app/access-codes', role: 'admin', path: () => '/app/access-codes', title: 'Company codes' },
  {
    route: '/app/access-code/new',
    role: 'admin',
    path: () => '/app/access-code/new',
    title: 'New company code',
  },
  { route: '/app/adminChangeLog', role: 'admin', path: () => '/app/adminChangeLog', title: 'Change log' },
  {
    route: '/app/deviceanduserreports',
    role: 'admin',
    path: () => '/app/deviceanduserreports',
    title: 'Reports',
  },
  { route: '/app/billing', role: 'admin', path: () => '/app/billing', title: 'Billing' },
  {
    route: '/app/billing/{year}/{month}',
    role: 'admin',
    path: (ids) => `/app/billing/${ids.bill.year}/${ids.bill.month}`,
    title: 'Bill',
  },
  { route: '/app/device', role: 'admin', path: () => '/app/device', title: 'Locks' },
  {
    route: '/app/device/{deviceId}',
    role: 'admin',
    path: (ids) => `/app/device/${ids.deviceId}`,
    title: 'Lock',
  },
  {
    route: '/app/fingerprint/{id}',
    role: 'admin',
    path: (ids) => `/app/fingerprint/${ids.fingerprintId}`,
    title: 'Fingerprint',
  },
  { route: '/app/group', role: 'admin', path: () => '/app/group', title: 'Groups' },
  {
    route: '/app/group/{groupId}',
    role: 'admin',
    path: (ids) => `/app/group/${ids.groupId}`,
    title: 'Group',
  },
  {
    route: '/app/listing/edit/{listingId}',
    role: 'admin',
    path: (ids) => `/app/listing/edit/${ids.listingId}`,
    title: 'Edit listing',
  },
  {
    route: '/app/listing/{listingId}',
    role: 'admin',
    path: (ids) => `/app/listing/${ids.listingId}`,
    title: 'Listing',
  },
  {
    route: '/app/listing/{listingId}/request/{reqId}',
    role: 'admin',
    path: (ids) => `/app/listing/${ids.listingId}/request/${ids.reqId}`,
    title: 'Request',
  },
  { route: '/app/lockout', role: 'admin', path: () => '/app/lockout', title: 'Lockouts' },
  {
    route: '/app/lockout/edit/{lockoutId}',
    role: 'admin',
    path: (ids) => `/app/lockout/edit/${ids.lockoutId}`,
    title: 'Edit lockout',
  },
  {
    route: '/app/lockout/{lockoutId}',
    role: 'admin',
    path: (ids) => `/app/lockout/${ids.lockoutId}`,
    title: 'Lockout',
  },
  {
    route: '/app/notificationAndAlert',
    role: 'admin',
    path: () => '/app/notificationAndAlert',
    title: 'Alerts',
  },
  { route: '/app/offline', role: 'admin', path: () => '/app/offline', title: 'Offline locks' },
  { route: '/app/gopro', role: 'admin', path: () => '/app/gopro', title: 'Go Pro' },
  { route: '/app/help', role: 'admin', path: () => '/app/help', title: 'Help' },
  { route: '/app/profile', role: 'admin', path: () => '/app/profile', title: 'Settings' },
  {
    route: '/app/reseller',
    role: 'admin',
    path: () => '/app/reseller',
    title: 'Reseller',
    // GET reseller/mine answers 404 to someone without a reseller account (the page offers one);
    // the client keeps 404s quiet (brief §8), the browser still logs the failed load.
    refusal: /Failed to load resource: the server responded with a status of 404/,
  },
  { route: '/app/review', role: 'admin', path: () => '/app/review', title: 'Reviews' },
  { route: '/app/product', role: 'admin', path: () => '/app/product', title: 'Shop' },
  {
    route: '/app/products',
    role: 'admin',
    path: () => '/app/products',
    title: 'Shop',
    url: /\/app\/product$/,
  },
  {
    route: '/app/product/{productId}',
    role: 'admin',
    path: () => '/app/product/smart-lock',
    title: 'Product',
  },
  // Further child routes needing login.
  { route: '/app/settings', role: 'admin', path: () => '/app/settings', title: 'Settings' },
  { route: '/app/settingsProfile', role: 'admin', path: () => '/app/settingsProfile', title: 'Settings' },
  { route: '/app/rentalcenter', role: 'admin', path: () => '/app/rentalcenter', title: 'Rental center' },
  { route: '/app/support', role: 'admin', path: () => '/app/support', title: 'Help & support' },
  {
    route: '/app/support/{supportType}',
    role: 'admin',
    path: () => '/app/support/lock',
    title: 'New support request',
  },
  { route: '/app/upgrade', role: 'admin', path: () => '/app/upgrade', title: 'Plan and payment' },
  { route: '/app/upgradeLegacy', role: 'admin', path: () => '/app/upgradeLegacy', title: 'Pay for a period' },
  { route: '/app/user', role: 'admin', path: () => '/app/user', title: 'People' },
  { route: '/app/user/{userId}', role: 'admin', path: (ids) => `/app/user/${ids.userId}`, title: 'Person' },
  // The sync layout and the print layout.
  { route: '/sync/center', role: 'admin', path: () => '/sync/center', title: 'Sync center' },
  { route: '/sync/user', role: 'admin', path: () => '/sync/user', title: 'Credentials on locks' },
  {
    route: '/print/bill/{historyId}',
    role: 'admin',
    path: (ids) => `/print/bill/${ids.bill._id}`,
    title: 'Invoice',
  },
  // Signed in, the landing takes an admin to the dashboard.
  {
    route: '/auth/landing',
    role: 'admin',
    path: () => '/auth/landing',
    title: 'Dashboard',
    url: /\/app\/dashboard$/,
  },
];

const USER_ROWS: Row[] = [
  { route: '/user', role: 'user', path: () => '/user', title: 'Your locks' },
  { route: '/user/help', role: 'user', path: () => '/user/help', title: 'Help' },
  { route: '/user/qr', role: 'user', path: () => '/user/qr', title: 'QR code' },
  { route: '/user/locks/{lockId}', role: 'user', path: (ids) => `/user/locks/${ids.lockId}`, title: 'Lock' },
  { route: '/user/settingsProfile', role: 'user', path: () => '/user/settingsProfile', title: 'Settings' },
  // "Any signed-in user" routes, as a basic user sees them.
  { route: '/app/qr', role: 'user', path: () => '/app/qr', title: 'QR code' },
  { route: '/app/review', role: 'user', path: () => '/app/review', title: 'Reviews' },
  { route: '/app/billing', role: 'user', path: () => '/app/billing', title: 'Billing' },
  { route: '/app/help', role: 'user', path: () => '/app/help', title: 'Help' },
  { route: '/app/support', role: 'user', path: () => '/app/support', title: 'Help & support' },
  { route: '/app/rentalcenter', role: 'user', path: () => '/app/rentalcenter', title: 'Rental center' },
  { route: '/space/{portalId}', role: 'user', path: (ids) => `/space/${ids.portalId}`, title: 'Invitation' },
  { route: '/must-activate', role: 'user', path: () => '/must-activate', title: 'Confirm your email' },
];

const STAFF_ROWS: Row[] = [
  { route: '/app/devTools', role: 'staff', path: () => '/app/devTools', title: 'Developer tools' },
];

const NEWCOMER_ROWS: Row[] = [
  { route: '/app/empty', role: 'newcomer', path: () => '/app/empty', title: 'Get started' },
];

const PUBLIC_ROWS: Row[] = [
  { route: '/', role: 'public', path: () => '/', title: 'Sign in' },
  {
    route: '/address',
    role: 'public',
    path: () => '/address',
    title: 'Delivery address',
    // The step after the cart: with an empty cart it sends the visitor back to the cart.
    before: async (page) => {
      await page.evaluate(() => localStorage.setItem('cart', JSON.stringify({ 'smart-lock': 1 })));
    },
  },
  { route: '/canceled', role: 'public', path: () => '/canceled', title: 'Payment canceled' },
  { route: '/cart', role: 'public', path: () => '/cart', title: 'Cart' },
  { route: '/goto-app', role: 'public', path: () => '/goto-app', title: 'Manage your hardware' },
  {
    route: '/pickShipping',
    role: 'public',
    path: () => '/pickShipping',
    title: 'Shipping',
    // The step after the address: a cart (localStorage `cart`) and the address given (this tab's).
    before: async (page) => {
      await page.evaluate(() => {
        localStorage.setItem('cart', JSON.stringify({ 'smart-lock': 1 }));
        const address = {
          name: 'Rowan Walker',
          company: '',
          line1: 'Parkstraße 1',
          line2: '',
          postalCode: '10115',
          city: 'Berlin',
          region: '',
          country: 'DE',
          phone: '',
        };
        sessionStorage.setItem('latchkey.checkout', JSON.stringify({ email: 'walker@example.com', address }));
      });
    },
  },
  { route: '/product', role: 'public', path: () => '/product', title: 'Shop' },
  { route: '/product/{productId}', role: 'public', path: () => '/product/smart-lock', title: 'Product' },
  { route: '/reseller-signup', role: 'public', path: () => '/reseller-signup', title: 'Become a reseller' },
  { route: '/signup', role: 'public', path: () => '/signup', title: 'Create your account' },
  { route: '/success', role: 'public', path: () => '/success', title: 'Payment' },
  { route: '/auth/login', role: 'public', path: () => '/auth/login', title: 'Sign in' },
  { route: '/auth/forgot', role: 'public', path: () => '/auth/forgot', title: 'Forgot your password' },
  {
    route: '/auth/reset',
    role: 'public',
    path: () => '/auth/reset?token=not-a-real-token',
    title: 'Choose a new password',
  },
  { route: '/auth/logout', role: 'public', path: () => '/auth/logout', title: 'Sign in', url: /\/$/ },
  {
    route: '/verify',
    role: 'public',
    path: () => '/verify?token=not-a-real-token',
    title: 'Confirm your email',
    refusal: /auth\/verify/,
  },
  {
    route: '/invite',
    role: 'public',
    path: () => '/invite?token=not-a-real-token',
    title: 'Invitation',
    refusal: /invite/,
  },
  // The terms, which no other journey edits (content.spec.ts rewrites the privacy page); a content
  // page is titled by its own title.
  { route: '/info/{topic}', role: 'public', path: () => '/info/terms', title: 'Terms of use' },
  {
    route: '/reset/{resetToken}',
    role: 'public',
    path: () => '/reset/not-a-real-token',
    title: 'Choose a new password',
  },
  { route: '/s', role: 'public', path: (ids) => ids.landingPath, title: 'Your stay' },
  {
    route: '/s/r/{listingId}',
    role: 'public',
    path: (ids) => `/s/r/${ids.listingId}`,
    title: 'Request a stay',
  },
  { route: '/test/api', role: 'public', path: () => '/test/api', title: 'API test page' },
];

/** Problems a page reports while a row is visited: console errors and uncaught exceptions. */
function watchConsole(page: Page) {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

const NOT_THE_SCREEN = /^(Page not found|Something went wrong|You don.t have access to this page)$/;

async function walk(page: Page, rows: readonly Row[], ids: Ids) {
  const problems = watchConsole(page);
  for (const row of rows) {
    problems.length = 0;
    const what = `${row.route} as ${row.role}`;
    await test.step(what, async () => {
      await row.before?.(page);
      await page.goto(row.path(ids));
      if (row.url) await expect.soft(page, what).toHaveURL(row.url);
      await expect.soft(page, `${what}: its title`).toHaveTitle(`${row.title} · Latchkey`);
      const heading = page.locator('h1').first();
      await expect.soft(heading, `${what}: a first-level heading`).toBeVisible();
      // Loaders gone: the screen's content, not its skeleton.
      await expect
        .soft(page.locator('[role="status"][aria-label^="Loading"]'), `${what}: done loading`)
        .toHaveCount(0);
      const text = ((await heading.textContent({ timeout: 1_000 }).catch(() => null)) ?? '').trim();
      expect.soft(text, `${what}: its own heading`).not.toMatch(NOT_THE_SCREEN);
      const unexpected = problems.filter((problem) => !(row.refusal && row.refusal.test(problem)));
      expect.soft(unexpected, `${what}: console errors`).toEqual([]);
    });
  }
}

/** Calls the API as the signed-in page (its stored token). */
async function apiAs(page: Page, path: string, body?: unknown): Promise<unknown> {
  return page.evaluate(
    async ({ path, body }) => {
      const token = (localStorage.getItem('authToken') ?? '').replace(/^"|"$/g, '');
      const response = await fetch(`/api3/${path}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
      return response.json() as Promise<unknown>;
    },
    { path, body },
  );
}

/** The first record's id of a list answer (a page's items, or an array). */
function firstId(answer: unknown, what: string): string {
  const items = Array.isArray(answer) ? answer : (answer as { items?: unknown[] }).items;
  const id = (items?.[0] as { _id?: string } | undefined)?._id;
  if (!id) throw new Error(`The demo data has no ${what}`);
  return id;
}

const ids = {} as Ids;

// Each test walks on its own (a failing row fails its role's test, not the walk of the others);
// the ids come first, once per worker, from the demo admin's and basic user's views.
test.describe.configure({ timeout: 240_000 });

test.beforeAll(async ({ browser }) => {
  const page = await browser.newPage();
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard/);
  const session = (await apiAs(page, 'auth')) as { portal: { _id: string } };
  ids.portalId = session.portal._id;
  ids.deviceId = firstId(await apiAs(page, 'portal/devices'), 'lock');
  ids.groupId = firstId(await apiAs(page, 'portal/groups'), 'group');
  ids.userId = firstId(await apiAs(page, 'portal/users'), 'person');
  // The demo portal has no lockout: one that ended long ago, which keeps no lock shut.
  const lockout = (await apiAs(page, 'portal/lockout', {
    name: 'Route walk: a lockout long past',
    from: '2020-01-01T08:00:00.000Z',
    until: '2020-01-01T18:00:00.000Z',
    deviceIds: [ids.deviceId],
  })) as { _id: string };
  ids.lockoutId = lockout._id;
  ids.fingerprintId = firstId(await apiAs(page, 'portal/fingerprints'), 'fingerprint');
  ids.listingId = firstId(await apiAs(page, 'listing'), 'listing');
  ids.reqId = firstId(await apiAs(page, `listing/${ids.listingId}/request`), 'stay request');
  const share = (await apiAs(page, `device/${ids.listingId}/sharelock/token`)) as { landingPath: string };
  ids.landingPath = share.landingPath;
  const bills = (await apiAs(page, 'portal/billing/pastBills')) as { items: Ids['bill'][] };
  if (!bills.items[0]) throw new Error('The demo data has no past bill');
  ids.bill = bills.items[0];
  await page.evaluate(() => localStorage.clear());
  await signIn(page, demo.user.email, demo.user.password);
  await expect(page).toHaveURL(/\/user/);
  const user = (await apiAs(page, 'auth')) as { user: { _id: string } };
  const access = (await apiAs(page, `user/${user.user._id}/accessTime`)) as { locks: unknown[] };
  ids.lockId = firstId(access.locks, 'lock of the basic user');
  await page.close();
});

test('the admin routes, as the demo portal admin', async ({ page }) => {
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard/);
  await walk(page, ADMIN_ROWS, ids);
});

test('the basic user routes, as the demo basic user', async ({ page }) => {
  await signIn(page, demo.user.email, demo.user.password);
  await expect(page).toHaveURL(/\/user/);
  await walk(page, USER_ROWS, ids);
});

test('platform staff and a person without a portal', async ({ page }) => {
  await signIn(page, 'staff@demo.latchkey.dev', 'demo-staff-pass');
  await expect(page).toHaveURL(/\/app/);
  await walk(page, STAFF_ROWS, ids);
  await page.evaluate(() => localStorage.clear());
  await signIn(page, 'newcomer@demo.latchkey.dev', 'demo-newcomer-pass');
  await expect(page).toHaveURL(/\/app\/empty$/);
  await walk(page, NEWCOMER_ROWS, ids);
});

test('the public routes, signed out', async ({ page }) => {
  await walk(page, PUBLIC_ROWS, ids);
});

test('the table holds every screen route of the brief', () => {
  const walked = new Set(
    [...ADMIN_ROWS, ...USER_ROWS, ...STAFF_ROWS, ...NEWCOMER_ROWS, ...PUBLIC_ROWS].map((r) => r.route),
  );
  // The brief's §2, route by route (its /app list, the further child routes, the other layouts).
  const brief = [
    ...['', 'address', 'canceled', 'cart', 'goto-app', 'pickShipping', 'product', 'product/{productId}'].map(
      (r) => `/${r}`,
    ),
    '/reseller-signup',
    '/signup',
    '/success',
    ...[
      '',
      'dashboard',
      'about',
      'activity',
      'access-codes',
      'access-code/new',
      'adminChangeLog',
      'deviceanduserreports',
      'billing',
      'billing/{year}/{month}',
      'device',
      'device/{deviceId}',
      'devTools',
      'fingerprint/{id}',
      'group',
      'group/{groupId}',
      'listing/edit/{listingId}',
      'listing/{listingId}',
      'listing/{listingId}/request/{reqId}',
      'lockout',
      'lockout/edit/{lockoutId}',
      'lockout/{lockoutId}',
      'notificationAndAlert',
      'offline',
      'empty',
      'gopro',
      'help',
      'profile',
      'reseller',
      'review',
      'product',
      'products',
      'product/{productId}',
      'qr',
      'settings',
      'settingsProfile',
      'rentalcenter',
      'support',
      'support/{supportType}',
      'upgrade',
      'upgradeLegacy',
      'user',
      'user/{userId}',
    ].map((r) => (r ? `/app/${r}` : '/app')),
    ...['', '/help', '/qr', '/locks/{lockId}', '/settingsProfile'].map((r) => `/user${r}`),
    ...['login', 'logout', 'forgot', 'reset', 'landing'].map((r) => `/auth/${r}`),
    '/sync/center',
    '/sync/user',
    '/print/bill/{historyId}',
    ...[
      '/verify',
      '/must-activate',
      '/invite',
      '/info/{topic}',
      '/reset/{resetToken}',
      '/s',
      '/s/r/{listingId}',
    ],
    '/space/{portalId}',
    '/test/api',
  ];
  expect(brief.filter((route) => !walked.has(route))).toEqual([]);
});
