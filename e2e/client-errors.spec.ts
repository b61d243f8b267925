import { expect, test } from '@playwright/test';
import { axeViolations } from './axe';
import { signIn } from './helpers';

// Client error reports (issue 21, the `error` collection): the page reports an uncaught error once
// per page load; the same error on another load counts on the same row; platform staff see it once
// with its count, open it and mark it resolved.

const staff = { email: 'staff@demo.latchkey.dev', password: 'demo-staff-pass' };

test('an error the page throws shows up once for staff, with a count', async ({ page }) => {
  test.setTimeout(90_000);
  const message = `E2E lock list broke ${Date.now()}`;
  const throwTwice = async () => {
    const reported = page.waitForRequest(
      (r) => r.url().endsWith('/api3/clientErrors') && r.method() === 'POST',
    );
    await page.evaluate((message) => {
      // Thrown from one place twice: one report per page load.
      const boom = () => {
        throw new Error(message);
      };
      setTimeout(boom, 0);
      setTimeout(boom, 10);
    }, message);
    await reported;
  };
  await page.goto('/');
  await throwTwice();
  await page.reload();
  await throwTwice();

  await signIn(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/app/, { timeout: 30_000 });
  await page.goto('/app/platform/errors');
  await page.getByRole('textbox', { name: 'Search the errors' }).fill(message);
  const table = page.getByRole('table', { name: 'Client errors' });
  const rows = table.getByRole('row').filter({ hasText: message });
  await expect(rows).toHaveCount(1);
  await expect(rows.getByRole('cell', { name: '2', exact: true })).toBeVisible();

  await rows.getByRole('button', { name: `Error: ${message}` }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText('Seen 2 times')).toBeVisible();
  await expect(drawer.getByText('Screen:')).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await drawer.getByRole('button', { name: 'Mark resolved' }).click();
  await expect(drawer.getByRole('button', { name: 'Open again' })).toBeVisible();
  await page.getByRole('button', { name: 'Close the error' }).click();
  // Resolved: gone from the open ones.
  await expect(table.getByRole('row').filter({ hasText: message })).toHaveCount(0);
});
