import { expect, test, type Page } from '@playwright/test';
import { demo, forgetSignIn, signIn } from './helpers';

// Access requests (issue 21, the `accessRequest` collection): a basic user asks for a lock from
// their own area, the admin grants it with a schedule, and the person's lock list shows it.

/** Adds a lock to the signed-in admin's portal through the API, as the locks screen would. */
async function addLock(page: Page, name: string): Promise<string> {
  return page.evaluate(async (name) => {
    const token = (localStorage.getItem('authToken') ?? '').replace(/^"|"$/g, '');
    const response = await fetch('/api3/portal/device/new', {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name, model: 'latchkey-sim', timeZone: 'Europe/Berlin' }),
    });
    if (!response.ok) throw new Error(`adding the lock failed: ${response.status}`);
    return ((await response.json()) as { device: { _id: string } }).device._id;
  }, name);
}

test('a basic user asks for a lock, the admin grants it with a schedule, the lock shows in their list', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const lockName = `Bike shed ${Date.now()}`;
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app/, { timeout: 30_000 });
  await addLock(page, lockName);
  await forgetSignIn(page);

  // Sam asks for the new lock with a note.
  await signIn(page, demo.user.email, demo.user.password);
  await expect(page).toHaveURL(/\/user$/, { timeout: 30_000 });
  await page.getByRole('link', { name: 'Access requests' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Access requests' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Lock' }).click();
  await page.getByRole('option', { name: lockName, exact: true }).click();
  await page.getByLabel('Note for the admin').fill('I fetch the bikes on Mondays');
  await page.getByRole('button', { name: 'Send request' }).click();
  const mine = page.getByRole('list', { name: 'Your requests' });
  const asked = mine.getByRole('listitem').filter({ hasText: lockName });
  await expect(asked.getByText('Waiting')).toBeVisible();
  await forgetSignIn(page);

  // The admin grants it on weekdays.
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app/, { timeout: 30_000 });
  await page.goto('/app/access-requests');
  const request = page
    .getByRole('list', { name: 'Access requests' })
    .getByRole('listitem')
    .filter({ hasText: lockName });
  await expect(request.getByText('I fetch the bikes on Mondays')).toBeVisible();
  await request.getByRole('button', { name: 'Grant…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Grant access' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(new RegExp(`may now open ${lockName}`))).toBeVisible();
  await forgetSignIn(page);

  // Sam sees the answer and the lock among theirs.
  await signIn(page, demo.user.email, demo.user.password);
  await expect(page).toHaveURL(/\/user$/, { timeout: 30_000 });
  await expect(
    page.getByRole('list', { name: 'Your locks' }).getByRole('link', { name: lockName }),
  ).toBeVisible();
  await page.goto('/user/access');
  await expect(
    page
      .getByRole('list', { name: 'Your requests' })
      .getByRole('listitem')
      .filter({ hasText: lockName })
      .getByText('Granted', { exact: true }),
  ).toBeVisible();
});
