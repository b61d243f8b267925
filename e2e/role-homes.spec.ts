import { expect, test } from '@playwright/test';
import { signIn } from './helpers';
import { launchMapping } from './chromium';

// A home for each role (issue 20, item 2). On the reseller host (brief §1: the host name chooses
// the system type) a reseller lands on their customers, acts in one through the portal override,
// is told so by the banner, and comes back from it; a person who acts in no portal lands on
// `empty` and creates a portal from there. Chromium resolves the reseller host to this machine.

const port = Number(process.env.E2E_PORT ?? 3310);
const resellerHost = `http://reseller.latchkey.io:${port}`;

test.use({ launchOptions: launchMapping('reseller.latchkey.io') });

test.describe('on the reseller host', () => {
  test.use({ baseURL: resellerHost });

  test('a reseller lands on their customers, acts in one, sees the banner and returns from it', async ({
    page,
  }) => {
    await signIn(page, 'reseller@demo.latchkey.dev', 'demo-reseller-pass');
    await expect(page).toHaveURL(`${resellerHost}/app/reseller`);
    await expect(page.getByRole('heading', { level: 1, name: 'Keystone Integrators' })).toBeVisible();
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: 'Reseller' })).toHaveAttribute('aria-current', 'page');

    // Each customer: its portal, plan standing, locks and this month so far.
    const customers = page.getByRole('list', { name: 'Customers' });
    const clinic = customers.getByRole('listitem', { name: 'Lakeside Clinic' });
    await expect(clinic).toContainText('clinic@demo.latchkey.dev');
    await expect(clinic).toContainText(/\d+ locks?/);
    await expect(clinic).toContainText(/This month so far: €\d+\.\d\d/);
    // Harbor Offices lets its reseller see its bills only: nothing to act with.
    await expect(customers.getByRole('listitem', { name: 'Harbor Offices' }).getByRole('button')).toHaveCount(
      0,
    );

    await clinic.getByRole('button', { name: 'Act in this portal: Lakeside Clinic' }).click();
    await expect(page).toHaveURL(`${resellerHost}/app/dashboard`);
    const banner = page.getByRole('region', { name: 'Working in another portal' });
    await expect(banner).toContainText(
      'You are working in Lakeside Clinic (clinic@demo.latchkey.dev)’s portal as its reseller',
    );
    await expect(page.getByRole('banner').getByText('Lakeside Clinic')).toBeVisible();
    // It stays while moving around the portal.
    await nav.getByRole('link', { name: 'Locks', exact: true }).click();
    await expect(page.getByRole('link', { name: 'Front desk' })).toBeVisible();
    await expect(banner).toBeVisible();

    await banner.getByRole('button', { name: 'Back to your portal' }).click();
    await expect(page).toHaveURL(`${resellerHost}/app/reseller`);
    await expect(banner).toHaveCount(0);
    await expect(page.getByRole('banner').getByText('Keystone Demo Site')).toBeVisible();
    expect(await page.evaluate(() => window.localStorage.getItem('portal'))).toBeNull();
  });
});

test('a person who acts in no portal lands on empty and creates a portal from there', async ({ page }) => {
  await signIn(page, 'newcomer@demo.latchkey.dev', 'demo-newcomer-pass');
  await expect(page).toHaveURL(/\/app\/empty$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome to Latchkey' })).toBeVisible();
  await expect(
    page.getByRole('list', { name: 'Invitations' }).getByRole('listitem', { name: 'Harbor Offices' }),
  ).toBeVisible();
  // Not a reseller: no reseller entry in the menu.
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await expect(nav.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Reseller' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Create your portal' }).click();
  const dialog = page.getByRole('dialog', { name: 'Start your own portal' });
  await dialog.getByRole('textbox', { name: 'Portal name' }).fill('Nia’s Flats');
  await dialog.getByRole('button', { name: 'Create portal' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  // Its dashboard, titled with the new portal's name, which the header's portal switcher shows too.
  await expect(page.getByRole('heading', { level: 1, name: 'Nia’s Flats' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('banner').getByText('Nia’s Flats')).toBeVisible();
});
