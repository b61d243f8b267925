import { expect, test, type Page } from '@playwright/test';
import { SimulatedLock } from '../packages/locksim/src/index';
import { demo, signIn } from './helpers';

// A lock simulated in the test process (packages/locksim) speaks only the device protocol to the
// portal's embedded broker; the browser sees what it does through the portal.

const mqttUrl = process.env.E2E_MQTT_URL ?? 'mqtt://127.0.0.1:3327';

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

/** "HH:MM" of an instant in UTC. */
const clock = (at: Date) => at.toISOString().slice(11, 16);

test('a simulated lock confirms a schedule change, decides codes offline, reports live, opens for a basic user by app and QR code, and raises a tamper alert', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard$/);

  // A lock the test will run, and Sam (the demo basic user, code 482916) given access to it.
  // A name of its own, so a retry does not meet the lock of the attempt before.
  const lockName = `Sim gate ${Date.now().toString(36)}`;
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

  let clockOffsetMs = 0;
  const lock = new SimulatedLock({
    url: mqttUrl,
    deviceId: device._id,
    secret: deviceSecret,
    heartbeatSeconds: 5,
    now: () => new Date(Date.now() + clockOffsetMs),
  });
  await lock.start();
  try {
    // The admin gives Sam a window around now; the lock confirms the new version.
    const now = new Date();
    const window = {
      windows: [
        {
          days: [0, 1, 2, 3, 4, 5, 6],
          start: clock(new Date(now.getTime() - 60 * 60_000)),
          end: clock(new Date(now.getTime() + 60 * 60_000)),
        },
      ],
    };
    const schedule = await apiAsPage(page, 'POST', `portal/device/${device._id}/schedule/${sam}`, {
      schedule: window,
    });
    expect(schedule.status).toBe(200);

    // The lock applies the set that carries the schedule on Sam's code (admin changes made close
    // together fold into one version, so the version number itself is not the signal), and the
    // portal shows it confirmed.
    const samsWindowsOnLock = () =>
      lock.credentialSet?.entries.find((entry) => entry.userId === sam && entry.kind === 'code')?.schedule
        ?.windows.length ?? 0;
    await expect.poll(samsWindowsOnLock, { timeout: 20_000 }).toBe(1);
    await page.goto(`/app/device/${device._id}?tab=sync`);
    const credentials = page.getByRole('region', { name: 'Credentials on the lock' });
    await expect(credentials.getByText('In sync')).toBeVisible({ timeout: 20_000 });
    await expect(credentials).toContainText(`v${lock.snapshot().credentialsVersion}`);

    // Watch the History tab while the lock decides: events appear without a reload.
    await page.getByRole('tab', { name: 'History' }).click();
    const events = page.getByRole('list', { name: 'Lock events' });

    expect(lock.enterCode('482916').decision).toMatchObject({ granted: true });
    await expect(events.getByText('Unlocked by Sam Resident with a code')).toBeVisible({ timeout: 20_000 });

    clockOffsetMs = 3 * 60 * 60_000; // three hours later: outside the window
    expect(lock.enterCode('482916').decision).toMatchObject({ granted: false, reason: 'outside_schedule' });
    await expect(events.getByText(/Refused Sam Resident.*outside their schedule/)).toBeVisible({
      timeout: 20_000,
    });
    clockOffsetMs = 0;

    // Sam opens it from the basic-user area; the lock carries out the command and says so.
    const samContext = await browser.newContext();
    const samPage = await samContext.newPage();
    await signIn(samPage, demo.user.email, demo.user.password);
    await expect(samPage).toHaveURL(/\/user$/);
    await samPage.getByRole('link', { name: lockName }).click();
    await samPage.getByRole('button', { name: `Unlock ${lockName} now` }).click();
    await expect(samPage.getByRole('status').filter({ hasText: `${lockName} unlocked.` })).toBeVisible({
      timeout: 20_000,
    });

    // Sam's QR page: the code the browser got opens the lock at its reader, checked offline.
    const issued = samPage.waitForResponse(
      (response) => response.url().endsWith('/api3/user/qr') && response.request().method() === 'POST',
    );
    await samPage.getByRole('link', { name: 'QR code' }).click();
    const { token } = (await (await issued).json()) as { token: string };
    await expect(samPage.getByRole('img', { name: "Your QR code for the lock's reader" })).toBeVisible();
    expect(lock.scanQr(token).decision).toMatchObject({ granted: true });
    await expect(events.getByText('Unlocked by Sam Resident with a QR code')).toBeVisible({
      timeout: 20_000,
    });
    await samContext.close();

    // Someone forces the lock: the portal's tamper rule raises an alert live, and it is listed unread.
    lock.tamper();
    await expect(page.getByText(`Tamper alarm at ${lockName}`).first()).toBeVisible({
      timeout: 20_000,
    });
    await page.getByRole('link', { name: 'Alerts' }).click();
    const alerts = page.getByRole('list', { name: 'Alerts' });
    await expect(
      alerts.getByRole('listitem').filter({ hasText: `Tamper alarm at ${lockName}` }),
    ).toContainText('New');
  } finally {
    await lock.stop();
  }
});

test('a basic user cannot unlock a lock that never connected: the button is disabled with the reason, the server refuses at once, and the QR page lists it apart', async ({
  page,
}) => {
  // Bike room is a demo lock that never connected (the tests run no demo locks); Sam reaches it
  // through the Residents group, at any time.
  await signIn(page, demo.user.email, demo.user.password);
  await expect(page).toHaveURL(/\/user$/);
  const card = page
    .getByRole('list', { name: 'Your locks' })
    .getByRole('listitem')
    .filter({ hasText: 'Bike room' });
  await expect(card).toContainText('Never connected');
  await expect(card).toContainText('Not connected yet');
  await expect(card).not.toContainText('You can open it now');

  await card.getByRole('link', { name: 'Bike room' }).click();
  const unlock = page.getByRole('button', { name: 'Unlock Bike room now' });
  await expect(unlock).toBeDisabled();
  await expect(unlock).toHaveAccessibleDescription(
    'Bike room has never connected: it cannot be opened from here until it connects.',
  );
  await page.screenshot({ path: test.info().outputPath('never-connected-desktop.png'), fullPage: true });

  // The server says the same at once, whatever a screen shows: 409, nothing waits out an expiry.
  const deviceId = new URL(page.url()).pathname.split('/').at(-1)!;
  const started = Date.now();
  const refused = await apiAsPage(page, 'POST', `device/${deviceId}/command`, { action: 'unlock' });
  expect(Date.now() - started).toBeLessThan(2000);
  expect(refused.status).toBe(409);
  expect(refused.body).toMatchObject({
    error: { code: 'lock_offline', message: expect.stringMatching(/^Bike room has never connected/) },
  });

  // On a phone: the reason and the state in full words, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByText('Not connected yet')).toBeVisible();
  await expect(unlock).toBeDisabled();
  // Measured once the frame has settled: the sidebar slides away over 200 ms after the resize.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath('never-connected-phone.png'), fullPage: true });

  // The QR page does not send them to it.
  await page.goto('/user/qr');
  await expect(page.getByRole('list', { name: 'Locks it cannot open yet' })).toContainText(
    'Bike room (never connected: the QR cannot open it until it connects)',
  );
  await expect(page.getByRole('list', { name: 'Locks you may open now' }).getByText('Bike room')).toHaveCount(
    0,
  );
});
