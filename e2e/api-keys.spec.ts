import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { axeViolations } from './axe';
import { demo, signIn } from './helpers';

// API keys and the typed client (issue 21, items 1 and 6): the demo admin creates a key on the API
// keys screen (reached from Settings) and copies its secret; the client's example script
// (packages/client/examples/list-locks-add-person.ts, the generated client) lists the portal's locks
// and adds a person with it; the person is in the portal's people list, and the key shows its last use.

const run = promisify(execFile);

test('an admin creates an API key; a script using the typed client lists the locks and adds a person', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard$/);
  await page.goto('/app/settings');
  await page.getByRole('link', { name: 'Manage API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();

  const name = `PMS ${crypto.randomUUID().slice(0, 6)}`;
  await page.getByRole('button', { name: 'Create key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create an API key' });
  await dialog.getByLabel('Name').fill(name);
  // Nothing chosen yet: the dialog says what is missing and creates nothing.
  await dialog.getByRole('button', { name: 'Create key' }).click();
  await expect(dialog.getByRole('alert')).toContainText('at least one area');
  await dialog.getByRole('radiogroup', { name: 'Locks' }).getByText('Read').click();
  await dialog.getByRole('radiogroup', { name: 'People', exact: true }).getByText('Write').click();
  expect(await axeViolations(page), 'accessibility of the create dialog').toEqual([]);
  await dialog.getByRole('button', { name: 'Create key' }).click();

  const created = page.getByRole('dialog', { name: `API key '${name}' created` });
  await expect(created.getByText('This is the only time the key is shown')).toBeVisible();
  const secret = (await created.getByTestId('api-key-secret').textContent())!.trim();
  expect(secret).toMatch(/^lk_live_[a-z0-9]{8}_[\w-]+$/);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await created.getByRole('button', { name: 'Copy' }).click();
  await expect(created.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await created.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row).toContainText(secret.slice(0, 16));
  await expect(row).toContainText('Never'); // not used yet

  // The PMS developer's script, as the client's README runs it.
  const email = `pms-guest-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const { stdout } = await run(
    process.execPath,
    ['--import', 'tsx', 'packages/client/examples/list-locks-add-person.ts'],
    {
      env: {
        ...process.env,
        LATCHKEY_URL: baseURL!,
        LATCHKEY_API_KEY: secret,
        PERSON_EMAIL: email,
        PERSON_FIRST_NAME: 'Pat',
        PERSON_LAST_NAME: 'Integration',
      },
    },
  );
  expect(stdout).toMatch(/^lock \S+ /m);
  expect(stdout).toContain(`added person`);
  expect(stdout).toContain(email);

  await page.goto('/app/user');
  await page.getByRole('searchbox').first().fill(email);
  // The list shows the address twice (a phone's line and the wide column): the last is the wide one.
  await expect(page.getByText(email).last()).toBeVisible();

  // The key's last use is shown; revoking it asks first.
  await page.goto('/app/settings/api-keys');
  await expect(row).toContainText('from ');
  expect(await axeViolations(page), 'accessibility of the API keys screen').toEqual([]);
  if (process.env.API_KEYS_SHOT) await page.screenshot({ path: process.env.API_KEYS_SHOT, fullPage: true });
  await row.getByRole('button', { name: `Revoke ${name}` }).click();
  await page
    .getByRole('dialog', { name: `Revoke '${name}'?` })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(row).toContainText('Revoked');
});
