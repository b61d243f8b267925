import { expect, test } from '@playwright/test';
import { axeViolations } from './axe';
import { signIn } from './helpers';
import { launchMapping } from './chromium';

// The platform console on the admin host (issue 20, item 1; brief §1: the host name chooses the
// system type). Staff find a customer's portal by its owner's email and act in it through a support
// session; the portal's admin, signed in elsewhere, sees "Support is acting here" until it ends.
// Anyone else is told the admin host is for platform staff. Chromium resolves the admin host here.

const port = Number(process.env.E2E_PORT ?? 3310);
const adminHost = `http://admin.latchkey.io:${port}`;
const owner = { email: 'lofts@demo.latchkey.dev', password: 'demo-lofts-pass' };

test.use({ launchOptions: launchMapping('admin.latchkey.io') });

test('staff find a portal by its owner’s email, act in it, and its admin sees support acting there', async ({
  browser,
}) => {
  // Two people in two browsers, each signing in: longer than one journey's default minute.
  test.setTimeout(120_000);
  const staffContext = await browser.newContext({ baseURL: adminHost });
  const adminContext = await browser.newContext();
  const staff = await staffContext.newPage();
  const admin = await adminContext.newPage();

  await signIn(staff, 'staff@demo.latchkey.dev', 'demo-staff-pass');
  await expect(staff).toHaveURL(`${adminHost}/app/platform`);
  await expect(staff.getByRole('heading', { level: 1, name: 'Platform console' })).toBeVisible();

  await staff.getByRole('searchbox', { name: 'Search portals and people' }).fill(owner.email);
  const row = staff.getByRole('row', { name: /Bayview Lofts/ });
  await expect(row).toContainText(owner.email);
  await expect(staff.getByRole('row')).toHaveCount(2); // the header and the one match
  await row.getByRole('link', { name: 'Bayview Lofts' }).click();
  await expect(staff.getByRole('heading', { level: 1, name: 'Bayview Lofts' })).toBeVisible();
  await expect(staff.getByText('1 mail failed this week')).toBeVisible();

  // The portal's owner, signed in on the app host, sees nothing yet.
  await signIn(admin, owner.email, owner.password);
  await expect(admin).toHaveURL(/\/app\/dashboard$/);
  const acting = admin.getByRole('region', { name: 'Support is acting here' });
  await expect(acting).toHaveCount(0);

  await staff.getByRole('button', { name: 'Act in this portal' }).click();
  const dialog = staff.getByRole('dialog', { name: 'Act in Bayview Lofts?' });
  await dialog.getByRole('button', { name: 'Start support session' }).click();
  await expect(staff.getByRole('region', { name: 'Support session' })).toContainText(
    `You are acting as ${owner.email}`,
  );

  await admin.reload();
  await expect(acting).toContainText('staff@demo.latchkey.dev of platform support is acting in this portal');
  await expect(acting).toContainText(/until \d\d:\d\d \(America\/Los_Angeles\)/);
  expect(await axeViolations(admin)).toEqual([]);

  // Ending it returns staff to the portal's detail, and the banner goes.
  await staff.getByRole('button', { name: 'End support session' }).click();
  await expect(staff.getByRole('heading', { level: 1, name: 'Bayview Lofts' })).toBeVisible();
  await admin.reload();
  await expect(admin.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(acting).toHaveCount(0);

  await staffContext.close();
  await adminContext.close();
});

test('the admin host tells anyone but platform staff that it is for staff', async ({ browser }) => {
  const context = await browser.newContext({ baseURL: adminHost });
  const page = await context.newPage();
  await page.goto('/');
  await expect(page.getByText('The platform console: for platform staff only.')).toBeVisible();
  await signIn(page, owner.email, owner.password);
  await expect(page.getByRole('alert')).toContainText('This address is for platform staff only');
  await expect(page).toHaveURL(`${adminHost}/`);
  await context.close();
});
