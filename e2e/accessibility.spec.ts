import { expect, test, type Page } from '@playwright/test';
import { axeViolations, COLOUR_RULES } from './axe';
import { demo, signIn } from './helpers';

// Every screen a person reaches is held to WCAG 2.1 AA as axe-core checks it in Chromium:
// contrast, names of controls and links, landmarks, headings, forms. The detail pages are
// reached by following the first link of their list, so the test needs no ids.

// The app follows the device's colour scheme, also when it changes: each screen, once loaded and
// settled, is checked against every rule in the light scheme, then against the colour rules in the
// dark one (the rest cannot differ between schemes, and a full second scan cost CI time).
const SCHEMES = ['light', 'dark'] as const;

async function expectAccessible(page: Page, what: string) {
  await page.waitForLoadState('networkidle');
  // The route's lazy screen and its first query have settled: no loader is left on the page.
  await expect(page.getByRole('progressbar')).toHaveCount(0);
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
  for (const colorScheme of SCHEMES) {
    await page.emulateMedia({ colorScheme });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', colorScheme);
    // Colours fade over 100-150 ms (Mantine's transitions): contrast is measured once they end.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((animation) => animation instanceof CSSTransition)
          .map((animation) => animation.finished.catch(() => undefined)),
      ),
    );
    const found = (await axeViolations(page, colorScheme === 'light' ? undefined : COLOUR_RULES)).map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help}\n` +
        violation.nodes
          .slice(0, 5)
          .map((node) => `    ${node.target.join(' ')}: ${node.failureSummary?.split('\n')[1]?.trim() ?? ''}`)
          .join('\n'),
    );
    // Soft: a failing screen does not hide the scheme or the screens after it.
    expect.soft(found, `accessibility of ${what} in the ${colorScheme} scheme`).toEqual([]);
  }
}

async function scanPages(page: Page, paths: string[]) {
  for (const path of paths) {
    await page.goto(path);
    await expectAccessible(page, path);
  }
}

async function scanFirstDetail(page: Page, listPath: string, detailPrefix: string) {
  await page.goto(listPath);
  const link = page.locator(`main a[href^="${detailPrefix}"]`).first();
  await link.click();
  await expect(page).toHaveURL(new RegExp(detailPrefix.replace(/\//g, '\\/')));
  await expectAccessible(page, `${listPath} → ${page.url()}`);
}

test.describe('WCAG 2.1 AA, light and dark', () => {
  // Each test scans a dozen screens in two schemes: about 40 s alone, past the default 60 s while
  // the other browser of the run is busy too (two workers on two cores).
  test.describe.configure({ timeout: 180_000 });
  test('public pages, and the sign-in form with its errors', async ({ page }) => {
    await scanPages(page, [
      '/',
      '/signup',
      '/reseller-signup',
      '/auth/forgot',
      '/auth/reset?token=not-a-real-token',
      '/verify?token=not-a-real-token',
      '/invite?token=not-a-real-token',
      '/reset/not-a-real-token',
      // Share-lock pages (rentals, issue 12): a landing without and with a dead link.
      '/s',
      '/s?t=not-a-real-token',
      // A guest's review page (rentals R2) without and with a dead link.
      '/review',
      '/review?t=not-a-real-token',
      // The API test page (issue 20, item 3): public, its checks run against this server.
      '/test/api',
      // Content pages (issue 20, item 6): a published page and a topic that has none.
      '/info/privacy',
      '/info/no-such-topic',
      // The shop and the pages a payment provider returns to (commerce, issue 13).
      '/product',
      '/product/smart-lock',
      '/cart',
      '/success',
      '/canceled',
      '/goto-app',
      '/no-such-page',
    ]);
    await page.goto('/');
    await page.getByRole('form', { name: 'Sign in' }).getByRole('button', { name: 'Sign in' }).click();
    await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
    await expectAccessible(page, 'the sign-in form with its field errors');
  });

  // The integrations' screens (issue 21) in a test of their own: with them the list above ran past
  // its time. The API keys screen is scanned by e2e/api-keys.spec.ts (its list and create dialog).
  test('integration screens', async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, demo.admin.email, demo.admin.password);
    await expect(page).toHaveURL(/\/app/);
    await scanPages(page, [
      // Access requests (issue 21): people asking for a lock; e2e/access-requests.spec.ts grants one.
      '/app/access-requests',
      // Desk readers (issue 21, item 5); e2e/readers.spec.ts scans the list with a reader and the secret dialog.
      '/app/readers',
      // Zones (issue 21, item 4); e2e/zones.spec.ts scans a zone's page with its locks.
      '/app/zones',
      // Webhooks (issue 21, item 2); e2e/webhooks.spec.ts scans it with a delivery log open.
      '/app/settings/webhooks',
    ]);
  });

  // The admin's forty screens in three tests, which two workers scan side by side: one test for
  // all the lists took 72 s on a quiet machine and over 180 s on a busy CI machine.
  test('admin list screens: locks, people and access', async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, demo.admin.email, demo.admin.password);
    await expect(page).toHaveURL(/\/app/);
    await scanPages(page, [
      '/app/dashboard',
      '/app/activity',
      // Reports (issue 20, item 5): the form and the scheduled reports; e2e/reports.spec.ts scans a report.
      '/app/deviceanduserreports',
      '/app/device',
      // Filtered: the filter's clear button shows, and must be a named button.
      '/app/device?model=generic-codelock',
      '/app/offline',
      '/app/notificationAndAlert',
      '/app/user',
      '/app/group',
      '/app/cards',
      '/app/lockout',
      '/app/keys',
      '/app/access-codes',
      '/app/access-code/new',
      '/app/adminChangeLog',
    ]);
  });

  test('admin list screens: account, help, shop and rentals', async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, demo.admin.email, demo.admin.password);
    await expect(page).toHaveURL(/\/app/);
    await scanPages(page, [
      '/app/about',
      '/app/help',
      '/app/upgrade',
      '/app/gopro',
      '/app/upgradeLegacy',
      '/app/products',
      '/app/product',
      '/app/product/smart-lock',
      // Issue 20, item 7: a host's reviews, and the QR code in the app frame.
      '/app/review',
      '/app/qr',
      '/app/orders',
      '/app/settings',
      '/app/billing',
      '/app/reseller',
      '/sync/center',
      '/sync/user',
      // Rentals R2: today's arrivals and departures, requests, calendar sync, stays.
      '/app/rentalcenter',
    ]);
  });

  test('admin record screens, rentals, and dialogs', async ({ page }) => {
    test.setTimeout(180_000);
    await signIn(page, demo.admin.email, demo.admin.password);
    await expect(page).toHaveURL(/\/app/);
    await scanFirstDetail(page, '/app/device', '/app/device/');
    await scanFirstDetail(page, '/app/user', '/app/user/');
    await scanFirstDetail(page, '/app/group', '/app/group/');
    await scanFirstDetail(page, '/app/billing', '/app/billing/');
    await scanFirstDetail(page, '/app/billing', '/print/bill/');
    // Rentals (issue 12): listings, a listing, its first request, the new-listing form, the
    // public request page and a guest's landing page.
    await scanPages(page, ['/app/listing', '/app/listing/edit/new']);
    // The demo listing by its title: the page also links to the new-listing form.
    await page.goto('/app/listing');
    await page.getByRole('link', { name: 'Bright two rooms by the park' }).first().click();
    await expect(page.getByRole('heading', { level: 1, name: 'Bright two rooms by the park' })).toBeVisible();
    await expectAccessible(page, 'a listing');
    const listingPath = new URL(page.url()).pathname;
    const requestPage = await page.locator('main a[href^="/s/r/"]').first().getAttribute('href');
    await scanFirstDetail(page, listingPath, `${listingPath}/request/`);
    await scanPages(page, [`/app/listing/edit/${listingPath.split('/').pop()}`, requestPage!]);
    // The locks and their arrival instructions are the listing page's "Locks & access" tab.
    await page.goto(`${listingPath}?tab=access`);
    await expectAccessible(page, "a listing's locks and access");
    await page
      .getByRole('button', { name: /^Arrival instructions for / })
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: /^Arrival instructions:/ })).toBeVisible();
    await expectAccessible(page, 'the arrival instructions dialog');

    await page.goto('/app/device');
    await page.getByRole('button', { name: 'Add lock' }).click();
    await expect(page.getByRole('dialog', { name: 'Add lock' })).toBeVisible();
    await expectAccessible(page, 'the "Add lock" dialog');
  });

  test('checkout steps with a cart, the address form with its errors, and staff payments', async ({
    page,
  }) => {
    await page.goto('/product/wireless-keypad');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await scanPages(page, ['/cart']);
    await page.goto('/address');
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await expect(page.locator('[aria-invalid="true"]').first()).toBeVisible();
    await expectAccessible(page, 'the address form with its field errors');
    await page.getByLabel(/^Email/).fill('a11y@example.com');
    await page.getByLabel(/^Full name/).fill('Ada');
    await page.getByLabel(/^Street and number/).fill('Street 1');
    await page.getByLabel(/^Postal code/).fill('10115');
    await page.getByLabel(/^City/).fill('Berlin');
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await expect(page).toHaveURL(/\/pickShipping$/);
    await expectAccessible(page, '/pickShipping');
    await signIn(page, 'staff@demo.latchkey.dev', 'demo-staff-pass');
    await expect(page).toHaveURL(/\/app/);
    await scanPages(page, ['/app/devTools/payments', '/app/devTools', '/app/devTools/api']);
    // The platform console (issue 20, item 1): its home, a portal's detail, features, background work.
    await scanPages(page, ['/app/platform', '/app/platform/features', '/app/platform/work']);
    await scanFirstDetail(page, '/app/platform', '/app/platform/portals/');
    // Support (issue 20, item 4): staff's inbox.
    await scanPages(page, ['/app/platform/support']);
    // Client errors (issue 21, the `error` collection); e2e/client-errors.spec.ts opens one.
    await scanPages(page, ['/app/platform/errors']);
  });

  test('the basic-user area', async ({ page }) => {
    await signIn(page, demo.user.email, demo.user.password);
    await expect(page).toHaveURL(/\/user/);
    await scanPages(page, ['/user', '/user/qr', '/user/help', '/user/settingsProfile', '/user/rentalcenter']);
    // Issue 20, item 7: the "any signed-in user" screens as a basic user sees them.
    await scanPages(page, ['/app/billing', '/app/review', '/app/qr']);
    await scanFirstDetail(page, '/user', '/user/locks/');
    // Support (issue 20, item 4): their requests, a request's form and a request with its answer.
    await scanPages(page, ['/app/support', '/app/support/lock']);
    // Access requests (issue 21): the form and their requests.
    await scanPages(page, ['/user/access']);
    await scanFirstDetail(page, '/app/support', '/app/support/request/');
  });

  test('a home for each role: empty, and the banner while a reseller acts in a customer portal', async ({
    page,
  }) => {
    await signIn(page, 'newcomer@demo.latchkey.dev', 'demo-newcomer-pass');
    await expect(page).toHaveURL(/\/app\/empty$/);
    await expectAccessible(page, '/app/empty');
    await page.evaluate(() => window.localStorage.clear());
    await signIn(page, 'reseller@demo.latchkey.dev', 'demo-reseller-pass');
    await expect(page).toHaveURL(/\/app/);
    await page.goto('/app/reseller');
    await page.getByRole('button', { name: 'Act in this portal: Lakeside Clinic' }).click();
    await expect(page.getByRole('region', { name: 'Working in another portal' })).toBeVisible();
    await expectAccessible(page, 'the acting banner on a customer’s dashboard');
  });

  test('CMS mode: a content page in its editor, and the navigation with its hide/show controls', async ({
    page,
  }) => {
    await signIn(page, 'staff@demo.latchkey.dev', 'demo-staff-pass');
    await expect(page).toHaveURL(/\/app/);
    await page.evaluate(() => localStorage.setItem('cms', 'true'));
    await page.goto('/info/terms');
    await page.getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByRole('region', { name: 'Version history' }).getByRole('row').nth(1)).toBeVisible();
    await expectAccessible(page, '/info/terms in CMS mode, editing');
    await scanPages(page, ['/app/help']);
    await page.evaluate(() => localStorage.removeItem('cms'));
  });
});
