import { expect, test } from '@playwright/test';
import { demo, signIn } from './helpers';

// Issue 19, item 6: "Add person" keeps what was typed when Escape is pressed by mistake (it asks
// first), and gives a lock, an access code and weekday hours in the one dialog.
test('Escape on a filled "Add person" asks first, and one dialog gives a lock, a code and hours', async ({
  page,
}) => {
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await page.goto('/app/user');
  await page.getByRole('button', { name: 'Add person' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add person' });
  const stamp = Date.now();
  const email = `kim-${stamp}@example.com`;
  await dialog.getByLabel(/^Email/).fill(email);

  await page.keyboard.press('Escape');
  const question = dialog.getByRole('alertdialog', { name: 'Discard changes?' });
  await expect(question).toBeVisible();
  await question.getByRole('button', { name: 'Keep editing' }).click();
  await expect(question).toBeHidden();
  await expect(dialog.getByLabel(/^Email/)).toHaveValue(email);

  await dialog.getByLabel('First name').fill('Kim');
  await dialog.getByLabel('Last name').fill(`Keys ${stamp}`);
  const locks = dialog.getByRole('combobox', { name: 'Locks' });
  await locks.click();
  await locks.fill('Main');
  await page.getByRole('option', { name: 'Main entrance' }).click();
  // A code nobody in the demo holds: six digits from the time.
  const code = String(stamp).slice(-6).replace(/^0/, '7');
  await dialog.getByLabel('Access code').fill(code);
  await dialog.getByRole('switch', { name: /^Only on certain days and hours/ }).check();
  await expect(dialog.getByRole('checkbox', { name: 'Monday' })).toBeChecked();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row', { name: new RegExp(`Kim Keys ${stamp}`) });
  await expect(row).toContainText('Invited');
  await row.getByRole('link', { name: `Kim Keys ${stamp}` }).click();
  const theirLocks = page.getByRole('list', { name: 'Their locks' });
  await expect(theirLocks).toContainText('Main entrance');
  await expect(theirLocks).toContainText('Mon–Fri 08:00–18:00');
  await expect(page.getByText(/· Invited [A-Z][a-z]{2} \d/)).toBeVisible();
});
