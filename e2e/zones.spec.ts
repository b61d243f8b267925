import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './axe';
import { demo, signIn } from './helpers';

// Zones (issue 21, item 4): an admin creates a zone, moves two locks of their own into it, filters
// the lock list by it, locks the zone out and sees the lockout over both locks. The locks are made
// for this test, so the demo's locks (which other journeys use) are never locked out.

async function addLock(page: Page, name: string) {
  return page.evaluate(async (name) => {
    const token = (localStorage.getItem('authToken') ?? '').replace(/^"|"$/g, '');
    const response = await fetch('/api3/portal/device/new', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, model: 'latchkey-sim', timeZone: 'UTC' }),
    });
    if (response.status !== 201) throw new Error(`adding ${name}: ${response.status}`);
    return ((await response.json()) as { device: { _id: string } }).device._id;
  }, name);
}

test('an admin groups two locks in a zone, filters the lock list by it and locks the zone out', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const signedIn = page.waitForResponse((response) => response.url().endsWith('/api3/portal/dashboard'));
  await signIn(page, demo.admin.email, demo.admin.password);
  await signedIn;
  const tag = Date.now().toString(36);
  const zoneName = `Warehouse ${tag}`;
  const [first, second] = [`Dock door ${tag}`, `Loading gate ${tag}`];
  await addLock(page, first);
  await addLock(page, second);

  // Create the zone from /app/zones.
  await page.goto('/app/zones');
  await expect(page.getByRole('heading', { level: 1, name: 'Zones' })).toBeVisible();
  await page.getByRole('button', { name: 'New zone' }).first().click();
  const form = page.getByRole('form', { name: 'New zone' });
  await form.getByLabel('Name').fill(zoneName);
  await form.getByRole('button', { name: 'Create zone' }).click();
  await expect(page.getByRole('heading', { level: 1, name: zoneName })).toBeVisible();

  // Move the two locks in.
  const addLocks = page.getByLabel('Add locks').first();
  for (const lock of [first, second]) {
    await addLocks.click();
    await addLocks.fill(tag);
    await page.getByRole('option', { name: lock }).click();
  }
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Add to zone' }).click();
  const locksTable = page.getByRole('table', { name: `Locks in ${zoneName}` });
  await expect(locksTable.getByRole('link', { name: first })).toBeVisible();
  await expect(locksTable.getByRole('link', { name: second })).toBeVisible();
  // Scanned once the "Locks added" notification has gone (the scan is of the page, not the toast).
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 20_000 });
  expect(await axeViolations(page), 'accessibility of the zone page').toEqual([]);

  // The lock list filtered by the zone shows exactly those two.
  await page.goto('/app/device');
  await page.getByLabel('Zone', { exact: true }).first().click();
  await page.getByRole('option', { name: zoneName }).click();
  await expect(page).toHaveURL(/zone=/);
  const rows = page.getByRole('table').getByRole('row').filter({ hasText: tag });
  await expect(rows).toHaveCount(2);
  await expect(page.getByRole('link', { name: 'Front door' })).toHaveCount(0);

  // Lock the zone out: a lockout over both locks.
  await page.goto('/app/zones');
  await page.getByRole('link', { name: zoneName }).click();
  await page.getByRole('button', { name: 'Lock out zone' }).click();
  const confirm = page.getByRole('dialog', { name: `Lock out ${zoneName}?` });
  await expect(confirm.getByText('2 locks will refuse')).toBeVisible();
  await confirm.getByRole('button', { name: 'Lock out zone' }).click();
  await expect(page).toHaveURL(/\/app\/lockout\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1, name: `${zoneName} locked out` })).toBeVisible();
  await expect(page.getByText(first).first()).toBeVisible();
  await expect(page.getByText(second).first()).toBeVisible();
  await page.goto('/app/lockout');
  await expect(page.getByRole('link', { name: `${zoneName} locked out` })).toBeVisible();
});
