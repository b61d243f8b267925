import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { SimulatedLock } from '../packages/locksim/src/index';
import { axeViolations, COLOUR_RULES } from './axe';
import { colourTransitionsEnded, demo, signIn } from './helpers';

// Outgoing webhooks (issue 21, item 2): an admin adds an endpoint on the webhooks screen; a
// simulated lock confirms a credential and opens for Sam; the receiver (in this test process) gets
// `credential.confirmed` and `lock.event` with Sam's name, signed as Standard Webhooks says; the
// screen's delivery log shows both.

const mqttUrl = process.env.E2E_MQTT_URL ?? 'mqtt://127.0.0.1:3327';

interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  event: {
    type: string;
    data: {
      lock?: { _id: string; name: string };
      person?: { _id: string; name?: string } | null;
      credential?: { kind: string } | null;
      event?: string;
    };
  };
}

/** Calls the API from the signed-in browser with its stored token. */
function apiAsPage(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = (localStorage.getItem('authToken') ?? '').replace(/^"|"$/g, '');
      const response = await fetch(`/api3/${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: response.status, body: response.status === 204 ? null : await response.json() };
    },
    { method, path, body },
  );
}

/** The signature a receiver computes (the Standard Webhooks specification), to compare with the header's. */
function expectedSignature(secret: string, received: Received) {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = crypto
    .createHmac('sha256', key)
    .update(`${received.id}.${received.timestamp}.${received.body}`)
    .digest('base64');
  return `v1,${mac}`;
}

test('an admin adds a webhook endpoint; a simulated lock’s confirmation and a person’s unlock reach it, signed, and show in the delivery log', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const received: Received[] = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({
        id: String(request.headers['webhook-id']),
        timestamp: String(request.headers['webhook-timestamp']),
        signature: String(request.headers['webhook-signature']),
        body,
        event: JSON.parse(body),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/latchkey`;
  let lock: SimulatedLock | null = null;
  let endpointId: string | null = null;
  try {
    await signIn(page, demo.admin.email, demo.admin.password);
    await expect(page).toHaveURL(/\/app\/dashboard$/);

    // Settings → Webhooks → Add endpoint: the lock events and credential confirmations only.
    await page.goto('/app/settings');
    await page.getByRole('link', { name: 'Manage webhook endpoints and their delivery logs' }).click();
    await expect(page).toHaveURL(/\/app\/settings\/webhooks$/);
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Add endpoint' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Add endpoint' });
    await dialog.getByLabel('Receiver address').fill(receiverUrl);
    await dialog.getByLabel('Description').fill('E2E receiver');
    await dialog.getByLabel('All events (those added later too)').uncheck();
    await dialog.getByRole('checkbox', { name: 'lock.event' }).check();
    await dialog.getByRole('checkbox', { name: 'credential.confirmed' }).check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await expect(dialog).toBeHidden();
    const card = page.getByRole('region', { name: receiverUrl });
    await expect(card).toContainText('lock.event, credential.confirmed');
    await card.getByRole('button', { name: 'Show secret' }).click();
    const secret = (await card.getByTestId('webhook-secret').textContent())!.trim();
    expect(secret).toMatch(/^whsec_/);
    const listed = await apiAsPage(page, 'GET', 'portal/webhooks');
    endpointId = (listed.body as { items: { _id: string; url: string }[] }).items.find(
      (e) => e.url === receiverUrl,
    )!._id;

    // A lock of the test's own, Sam (code 482916) given access to it, run as a simulated lock.
    const lockName = `Webhook door ${Date.now().toString(36)}`;
    const created = await apiAsPage(page, 'POST', 'portal/device/new', {
      name: lockName,
      model: 'latchkey-sim',
      timeZone: 'UTC',
    });
    expect(created.status).toBe(201);
    const { device, deviceSecret } = created.body as { device: { _id: string }; deviceSecret: string };
    const people = await apiAsPage(page, 'GET', 'portal/users?search=user%40demo');
    const sam = (people.body as { items: { _id: string }[] }).items[0]!._id;
    expect((await apiAsPage(page, 'PUT', `user/${sam}/device/${device._id}`)).status).toBeLessThan(300);
    lock = new SimulatedLock({
      url: mqttUrl,
      deviceId: device._id,
      secret: deviceSecret,
      heartbeatSeconds: 5,
    });
    await lock.start();

    // The lock acknowledges its set: credential.confirmed for Sam's code on this lock.
    const ours = (type: string) =>
      received.filter((r) => r.event.type === type && r.event.data.lock?._id === device._id);
    await expect
      .poll(() => ours('credential.confirmed').some((r) => r.event.data.person?._id === sam), {
        timeout: 30_000,
      })
      .toBe(true);
    const confirmed = ours('credential.confirmed').find((r) => r.event.data.person?._id === sam)!;
    expect(confirmed.event.data.lock).toEqual({ _id: device._id, name: lockName });
    expect(confirmed.signature.split(' ')).toContain(expectedSignature(secret, confirmed));
    expect(confirmed.id).toMatch(/^msg_/);

    // Sam's code at the lock: lock.event names Sam.
    expect(lock.enterCode('482916').decision).toMatchObject({ granted: true });
    await expect.poll(() => ours('lock.event').length, { timeout: 30_000 }).toBeGreaterThan(0);
    const unlock = ours('lock.event')[0]!;
    expect(unlock.event.data).toMatchObject({ event: 'unlock', lock: { _id: device._id, name: lockName } });
    expect(unlock.event.data.person?.name).toMatch(/Sam/);
    expect(unlock.event.data.credential).toMatchObject({ kind: 'code' });
    expect(unlock.signature.split(' ')).toContain(expectedSignature(secret, unlock));

    // The delivery log shows both, delivered, with their attempts.
    await card.getByRole('button', { name: 'Delivery log' }).click();
    const log = card.getByRole('table', { name: 'Delivery log' });
    await expect(log.getByRole('row').filter({ hasText: 'lock.event' }).first()).toContainText('Delivered');
    await expect(log.getByRole('row').filter({ hasText: 'credential.confirmed' }).first()).toContainText(
      'Delivered',
    );
    await log
      .getByRole('row')
      .filter({ hasText: unlock.id })
      .getByRole('button', { name: 'Details' })
      .click();
    await expect(card.getByRole('table', { name: `Attempts of ${unlock.id}` })).toContainText('HTTP 200');
    await expect(card).toContainText(lockName);

    // Send test event: it arrives, and the log lists it.
    await card.getByRole('button', { name: 'Send test event' }).click();
    await expect
      .poll(() => received.some((r) => r.event.type === 'webhook.test'), { timeout: 15_000 })
      .toBe(true);
    await expect(log.getByRole('row').filter({ hasText: 'webhook.test' }).first()).toContainText('Delivered');

    // The screen with its log open passes WCAG 2.1 AA, light and dark.
    // (The notifications of the steps above have closed first: they are not this screen's.)
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
    expect.soft(await axeViolations(page)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await colourTransitionsEnded(page);
    expect.soft(await axeViolations(page, COLOUR_RULES)).toEqual([]);
    await page.emulateMedia({ colorScheme: 'light' });
  } finally {
    await lock?.stop();
    // Other journeys share the demo portal: the endpoint goes with the test.
    if (endpointId) await apiAsPage(page, 'DELETE', `portal/webhooks/${endpointId}`).catch(() => {});
    receiver.closeAllConnections();
    receiver.close();
  }
});
