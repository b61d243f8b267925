import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

// Issue 20, item 3: platform staff's developer tools (the API console runs a call as them, audited)
// and the public API test page.

const staff = { email: 'staff@demo.latchkey.dev', password: 'demo-staff-pass' };

test('staff open the developer tools from the menu and run GET portal/devices in the API console', async ({
  page,
}) => {
  await signIn(page, staff.email, staff.password);
  await expect(page).toHaveURL(/\/app/);
  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  await nav.getByRole('link', { name: 'Developer tools' }).click();
  await expect(page).toHaveURL(/\/app\/devTools$/);
  const main = page.getByRole('main');
  await expect(main.getByRole('link', { name: 'Dev mailbox' })).toBeVisible();
  await main.getByRole('link', { name: 'API console' }).click();
  await expect(page).toHaveURL(/\/app\/devTools\/api$/);

  await page.getByRole('textbox', { name: /^Path/ }).fill('portal/devices');
  await page.getByRole('button', { name: 'Run' }).click();
  const answer = page.getByRole('region', { name: 'Answer' });
  await expect(answer.getByTestId('answer-status')).toHaveText('200 OK');
  await expect(answer).toContainText('GET /api3/portal/devices');
  await expect(answer).toContainText(/\d+\.\d ms on the server/);
  await expect(answer.getByLabel('Answer body')).toContainText('"items"');

  // An answer the inner route refuses is the call's answer, not the console's failure.
  await page.getByRole('textbox', { name: /^Path/ }).fill('portal/device/no-such-lock');
  await page.getByRole('button', { name: 'Run' }).click();
  await expect(answer.getByTestId('answer-status')).toHaveText(/^40[34]/);
  const history = page.getByRole('region', { name: 'Calls on this page' });
  await expect(history.getByRole('row')).toHaveCount(3);

  // The call is in the change log of the portal it acted in.
  const audit = await page.evaluate(async () => {
    const token = (localStorage.getItem('authToken') ?? '').replace(/^"|"$/g, '');
    const response = await fetch('/api3/portal/audit?limit=20', {
      headers: { authorization: `Bearer ${token}` },
    });
    return response.text();
  });
  expect(audit).toContain('developer_call.run');
  expect(audit).toContain('GET portal/devices');
});

test('the API test page shows every check passed', async ({ page }) => {
  await page.goto('/test/api');
  await expect(page.getByRole('heading', { level: 1, name: 'API test page' })).toBeVisible();
  await expect(page.getByText('All 4 checks passed')).toBeVisible();
  for (const name of [
    'API reachable',
    'Version header',
    'Sealed envelope round trip',
    'Clock against the server',
  ]) {
    await expect(page.getByRole('region', { name })).toContainText('Passed');
  }
  await page.getByRole('button', { name: 'Run the checks again' }).click();
  await expect(page.getByText('All 4 checks passed')).toBeVisible();
});
