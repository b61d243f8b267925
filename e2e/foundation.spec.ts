import { expect, test } from '@playwright/test';
import { callApiAsPage, demo, signIn, signOut } from './helpers';

test('a new operator signs up, lands on their dashboard, signs out and back in', async ({ page }) => {
  const email = `operator-${Date.now()}@example.com`;
  await page.goto('/signup');
  const form = page.getByRole('form', { name: 'Create your account' });
  await form.getByLabel('First name').fill('Olga');
  await form.getByLabel('Last name').fill('Operator');
  await form.getByLabel('Email').fill(email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('a sturdy passphrase');
  await form.getByLabel('Portal name').fill('Linden Court');
  await form.getByRole('button', { name: 'Create account' }).click();

  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Portal: Linden Court. Change portal' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Linden Court');

  await signOut(page);
  await page.goto('/app/dashboard');
  await expect(page).toHaveURL(/\/\?redirect=/);

  await signIn(page, email, 'a sturdy passphrase');
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await expect(page.getByRole('main')).toContainText('Linden Court');
});

test('sign-up shows what is wrong with the input', async ({ page }) => {
  await page.goto('/signup');
  const form = page.getByRole('form', { name: 'Create your account' });
  await form.getByLabel('Email').fill(demo.admin.email);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('another sturdy passphrase');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('An account with this email already exists')).toBeVisible();

  await form.getByLabel('Email').fill(`fresh-${Date.now()}@example.com`);
  await form.getByRole('textbox', { name: 'Password', exact: true }).fill('password123');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByText(/too common/)).toBeVisible();
  await expect(page).toHaveURL(/\/signup$/);
});

test('a wrong password is refused with a clear message', async ({ page }) => {
  await signIn(page, demo.admin.email, 'not the password');
  await expect(page.getByRole('alert')).toContainText('don’t match an account');
  await expect(page).toHaveURL(/\/$/);
});

test('the demo admin switches to another portal and back', async ({ page }) => {
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await page.getByRole('button', { name: 'Portal: Demo Apartments. Change portal' }).click();
  await page.getByRole('menuitem', { name: /Harbor Offices/ }).click();

  const switcher = page.getByRole('button', { name: 'Portal: Harbor Offices. Change portal' });
  await expect(switcher).toBeVisible();
  await expect(page.getByRole('main')).toContainText('America/New_York');
  expect(await page.evaluate(() => localStorage.getItem('portal'))).toBeTruthy();

  // The choice survives a reload: it is stored and sent as the override header.
  await page.reload();
  await expect(switcher).toBeVisible();

  await switcher.click();
  await page.getByRole('menuitem', { name: 'Back to my portal' }).click();
  await expect(page.getByRole('button', { name: 'Portal: Demo Apartments. Change portal' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('portal'))).toBeNull();
});

test('an unknown address shows the not-found page', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: /not found/i })).toBeVisible();
  const api = await page.request.get('/api3/no/such/route');
  expect(api.status()).toBe(404);
  expect((await api.json()).error.code).toBe('not_found');
});

test('the page says it is loading until the app replaces that with the screen', async ({ page, request }) => {
  // What a slow phone shows while the code downloads (index.html), on the sign-in page and in the
  // signed-in frame's page alike.
  for (const path of ['/', '/app/dashboard']) {
    const html = await (await request.get(path)).text();
    expect(html).toContain('<p id="boot-shell" role="status">Loading…</p>');
  }
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  // A first load of the signed-in frame's page: the dashboard's heading in the shell's place.
  await page.goto('/app/dashboard');
  await expect(page.locator('main h1').first()).toBeVisible();
  await expect(page.locator('#boot-shell')).toHaveCount(0);
});

test('robots.txt keeps search engines out of the signed-in screens', async ({ page }) => {
  const robots = await page.request.get('/robots.txt');
  expect(robots.status()).toBe(200);
  expect(robots.headers()['content-type']).toMatch(/^text\/plain/);
  const rules = await robots.text();
  for (const area of ['/app/', '/user/', '/sync/', '/api3/']) expect(rules).toContain(`Disallow: ${area}`);
});

test('a basic user sees their own locks, and cannot open the admin dashboard, in the screen or through the API', async ({
  page,
}) => {
  await signIn(page, demo.user.email, demo.user.password);
  await expect(page).toHaveURL(/\/user$/);
  const locks = page.getByRole('list', { name: 'Your locks' });
  await expect(locks.getByRole('listitem').filter({ hasText: 'Flat 1.2' })).toBeVisible();
  await page.getByRole('button', { name: 'Show the code' }).click();
  await expect(page.getByText('482916')).toBeVisible();

  await page.goto('/app/dashboard');
  await expect(page.getByRole('heading', { name: "You don't have access to this page" })).toBeVisible();

  const dashboard = await callApiAsPage(page, 'portal/dashboard');
  expect(dashboard.status).toBe(403);
  const members = await callApiAsPage(page, 'portal/users');
  expect(members.status).toBe(403);
});

test('an admin renames the portal from the dashboard', async ({ page }) => {
  const email = `renamer-${Date.now()}@example.com`;
  await page.goto('/signup');
  const signup = page.getByRole('form', { name: 'Create your account' });
  await signup.getByLabel('Email').fill(email);
  await signup.getByRole('textbox', { name: 'Password', exact: true }).fill('a sturdy passphrase');
  await signup.getByLabel('Portal name').fill('Old Name');
  await signup.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);

  const settings = page.getByRole('form', { name: 'Portal settings' });
  await settings.getByLabel('Portal name').fill('New Name');
  await settings.getByRole('button', { name: /save/i }).click();
  await expect(page.getByRole('button', { name: 'Portal: New Name. Change portal' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Portal: New Name. Change portal' })).toBeVisible();
});

test('a person changes their name and password on the profile', async ({ page }) => {
  const email = `profile-${Date.now()}@example.com`;
  await page.goto('/signup');
  const signup = page.getByRole('form', { name: 'Create your account' });
  await signup.getByLabel('Email').fill(email);
  await signup.getByRole('textbox', { name: 'Password', exact: true }).fill('first sturdy passphrase');
  await signup.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);

  await page.goto('/app/profile');
  const details = page.getByRole('form', { name: 'Your details' });
  await details.getByLabel('First name').fill('Petra');
  await details.getByRole('button', { name: /save/i }).click();
  await expect(page.getByRole('button', { name: /^Account menu for Petra/ })).toBeVisible();

  const password = page.getByRole('form', { name: 'Change password' });
  await password.getByLabel('Current password').fill('first sturdy passphrase');
  await password.getByRole('textbox', { name: 'New password', exact: true }).fill('second sturdy passphrase');
  await password.getByLabel(/confirm/i).fill('second sturdy passphrase');
  await password.getByRole('button', { name: /change password/i }).click();
  await expect(page.getByText(/password (was )?changed/i).first()).toBeVisible();

  await signOut(page);
  await signIn(page, email, 'second sturdy passphrase');
  await expect(page).toHaveURL(/\/app\/dashboard$/);
});
