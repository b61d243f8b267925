import { expect, test, type Page } from '@playwright/test';
import { SimulatedReader } from '../packages/locksim/src/index';
import { axeViolations } from './axe';
import { demo, signIn } from './helpers';

// Desk enrollment readers (issue 21, item 5): the admin pairs a reader on /app/readers, a reader
// simulated in the test process (packages/locksim) connects with the id and secret shown once, and
// "Tap a card now" on a person's page picks up the card it reads; the card is saved as today.

const mqttUrl = process.env.E2E_MQTT_URL ?? 'mqtt://127.0.0.1:3323';

async function expectAccessible(page: Page, what: string) {
  expect(await axeViolations(page), `accessibility of ${what}`).toEqual([]);
}

test('an admin pairs a desk reader and fills a card UID from it with "Tap a card now"', async ({ page }) => {
  test.setTimeout(120_000);
  const signedIn = page.waitForResponse((response) => response.url().endsWith('/api3/portal/dashboard'));
  await signIn(page, demo.admin.email, demo.admin.password);
  await signedIn;

  // Pair a reader: its secret is shown once, with the simulator's command.
  await page.goto('/app/readers');
  await expect(page.getByRole('heading', { level: 1, name: 'Desk readers' })).toBeVisible();
  await page.getByRole('button', { name: 'Pair a reader' }).first().click();
  const name = `Front desk ${Date.now().toString(36)}`;
  const form = page.getByRole('form', { name: 'Pair a reader' });
  await form.getByLabel('Name').fill(name);
  await form.getByRole('button', { name: 'Pair reader' }).click();
  const dialog = page.getByRole('dialog', { name: `Connect ${name}` });
  await expect(dialog).toBeVisible();
  const secret = (await dialog.getByLabel('Reader secret', { exact: true }).textContent())!.trim();
  const command = (await dialog
    .locator('pre, code')
    .filter({ hasText: 'npm run locksim' })
    .first()
    .textContent())!;
  const readerId = /--reader ([^:\s]+):/.exec(command)![1]!;
  expect(command).toContain(`${readerId}:${secret}`);
  await expectAccessible(page, 'the reader secret dialog');
  await dialog.getByRole('button', { name: 'I have saved it' }).click();

  const reader = new SimulatedReader({ url: mqttUrl, readerId, secret, kind: 'both', heartbeatSeconds: 5 });
  await reader.start();
  try {
    const row = page.getByRole('row').filter({ hasText: name });
    await expect(row.getByText('Online')).toBeVisible({ timeout: 20_000 });
    await expectAccessible(page, '/app/readers');
    if (process.env.READERS_SHOTS)
      await page.screenshot({ path: `${process.env.READERS_SHOTS}/readers-list.png` });

    // Sam's page (the demo basic user): Register a card → Tap a card now.
    await page.goto('/app/user');
    await page.getByRole('link', { name: /Sam/ }).first().click();
    await expect(page).toHaveURL(/\/app\/user\/[^/]+$/);
    await page.getByRole('button', { name: 'Register a card' }).click();
    const cardForm = page.getByRole('form', { name: 'Register a card' });
    await cardForm.getByLabel('Desk reader').click();
    await page.getByRole('option', { name, exact: true }).click();
    await cardForm.getByRole('button', { name: 'Tap a card now' }).click();
    await expect(cardForm.getByText(`Tap the card on ${name}`)).toBeVisible();
    await expect.poll(() => reader.pending?.kind).toBe('rfid');

    const uid = Array.from({ length: 4 }, () =>
      Math.floor(Math.random() * 256)
        .toString(16)
        .padStart(2, '0'),
    )
      .join('')
      .toUpperCase();
    expect((await reader.tap(uid)).answered).toBe(true);
    await expect(cardForm.getByRole('textbox', { name: 'Card UID' })).toHaveValue(uid);
    await expect(cardForm.getByText(`Read the card UID ${uid} from ${name}.`)).toBeVisible();
    if (process.env.READERS_SHOTS)
      await page.screenshot({ path: `${process.env.READERS_SHOTS}/card-form.png` });
    await cardForm.getByRole('button', { name: 'Register card' }).click();
    await expect(cardForm).toBeHidden();
    // The card is saved as Sam's.
    const cards = await page.evaluate(async (uid) => {
      const token = (localStorage.getItem('authToken') ?? '').replace(/^"|"$/g, '');
      const response = await fetch(`/api3/portal/rfids?search=${uid}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return (await response.json()) as { items: { uid: string; holder: { name: string } | null }[] };
    }, uid);
    expect(cards.items.map((card) => card.uid)).toContain(uid);
  } finally {
    await reader.stop();
  }
});
