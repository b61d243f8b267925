import { expect, test, type Locator, type Page } from '@playwright/test';

/** A form field by its label, whether or not the label carries the required marker " *". */
function field(scope: Page | Locator, label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return scope.getByLabel(new RegExp(`^${escaped}( \\*)?$`));
}

test('a guest invite and a company code open a lock without an account, until the invite is deleted', async ({
  page,
}) => {
  await page.goto('/signup');
  const signup = page.getByRole('form', { name: 'Create your account' });
  await signup.getByLabel('Email').fill(`guests-${Date.now()}@example.com`);
  await signup.getByRole('textbox', { name: 'Password', exact: true }).fill('a sturdy passphrase');
  await signup.getByLabel('Portal name').fill('Guest House');
  await signup.getByRole('button', { name: 'Create account' }).click();
  await expect(page).toHaveURL(/\/app\/dashboard$/);

  await page.goto('/app/device');
  await page.getByRole('button', { name: 'Add lock' }).first().click();
  const lockForm = page.getByRole('form', { name: 'Add lock' });
  await field(lockForm, 'Name').fill('Studio door');
  await field(lockForm, 'Model').first().click();
  await page.getByRole('option', { name: 'Latchkey simulated lock' }).click();
  await lockForm.getByRole('button', { name: 'Add lock' }).click();
  await page.getByRole('button', { name: 'I have saved it' }).click();
  await page.getByRole('link', { name: 'Studio door' }).click();
  await expect(page).toHaveURL(/\/app\/device\/[\w-]+/);
  const lockUrl = new URL(page.url()).pathname;

  // A guest for every day, all day, from today for a week.
  await page.goto(`${lockUrl}?tab=guests`);
  await page.getByRole('button', { name: 'Invite a guest' }).click();
  const invite = page.getByRole('form', { name: 'Invite a guest' });
  await field(invite, 'Name').fill('Gail Guest');
  await invite.getByLabel('Saturday').check();
  await invite.getByLabel('Sunday').check();
  await invite.getByLabel('All day').check();
  await field(invite, 'Code').fill('739155');
  await invite.getByRole('button', { name: 'Invite guest' }).click();
  await expect(page.getByText('Gail Guest', { exact: true })).toBeVisible();

  // A company code for the cleaning crew.
  await page.goto('/app/access-code/new');
  const code = page.getByRole('form', { name: 'New company code' });
  await field(code, 'Name').fill('Cleaning crew');
  await field(code, 'Code').fill('739155');
  await code.getByRole('button', { name: 'Add company code' }).click();
  // The guest holds that code already: the server's rule lands on the field.
  await expect(code.getByText(/already used by someone else/)).toBeVisible();
  await field(code, 'Code').fill('246813');
  await code.getByRole('button', { name: 'Add company code' }).click();
  await expect(page).toHaveURL(/\/app\/access-codes$/);
  await expect(page.getByRole('row', { name: /Cleaning crew/ })).toBeVisible();

  await page.goto(`${lockUrl}?tab=access`);
  const others = page.getByRole('list', { name: 'Codes without an account' });
  await expect(others.getByRole('listitem').filter({ hasText: 'Guest: Gail Guest' })).toContainText(
    'Can open',
  );
  await expect(others.getByRole('listitem').filter({ hasText: 'Company code: Cleaning crew' })).toContainText(
    'Can open',
  );

  await page.goto(`${lockUrl}?tab=guests`);
  await page.getByRole('button', { name: 'Delete the invite of Gail Guest' }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /Delete/ })
    .click();
  await expect(page.getByText('Gail Guest', { exact: true })).toHaveCount(0);
  await page.goto(`${lockUrl}?tab=access`);
  await expect(page.getByRole('list', { name: 'Codes without an account' })).not.toContainText('Gail Guest');
});
