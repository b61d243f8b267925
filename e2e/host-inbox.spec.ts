import { expect, test, type Page } from '@playwright/test';
import { demo, signIn } from './helpers';

// The host's inbox (issue 19, item 3): a guest asks for a stay on the public request page while the
// host has the dashboard open; the request shows in the header's bell within seconds, without a
// reload (the live channel), and the bell's entry opens the request.

const LISBON = 'Europe/Lisbon';

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
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    },
    { method, path, body },
  );
}

/** Today on Lisbon's calendar plus `days`, as YYYY-MM-DD. */
function lisbonDay(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: LISBON }).format(new Date());
  const at = new Date(`${today}T12:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

/** The request page calendar's name for a free day: "Saturday, November 28, 2026, free". */
function freeDay(date: string): RegExp {
  const name = new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${date}T12:00:00Z`));
  return new RegExp(`^${name}, free$`);
}

test("a stay request made on the public page shows in the host's bell within seconds, without a reload", async ({
  page,
  browser,
}) => {
  test.setTimeout(60_000);
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard$/);

  // A lock and a published listing of its own (its own names, so a retry does not meet the last).
  const suffix = Date.now().toString(36);
  const title = `Inbox loft ${suffix}`;
  const lock = await apiAsPage(page, 'POST', 'portal/device/new', {
    name: `Inbox door ${suffix}`,
    model: 'latchkey-sim',
    timeZone: LISBON,
  });
  expect(lock.status).toBe(201);
  const listing = await apiAsPage(page, 'POST', 'listing/new', {
    title,
    deviceIds: [(lock.body.device as { _id: string })._id],
    published: true,
  });
  expect(listing.status).toBe(201);
  const listingId = listing.body._id as string;

  // The host starts from a read inbox: opening the bell reads what it shows.
  const bell = page.getByRole('button', { name: /^Notifications/ });
  await bell.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  const readBell = page.getByRole('button', { name: 'Notifications', exact: true });
  await expect(readBell).toBeVisible();
  await readBell.click();
  await expect(page.getByRole('dialog')).toBeHidden();

  // A visitor, signed in nowhere, asks for three nights on the request page.
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/s/r/${listingId}`);
  await expect(visitor.getByRole('heading', { name: title })).toBeVisible();
  for (const date of [lisbonDay(3), lisbonDay(6)]) {
    for (let i = 0; i < 2 && !(await visitor.getByRole('button', { name: freeDay(date) }).isVisible()); i++) {
      await visitor.getByRole('button', { name: 'Next month' }).click();
    }
    await visitor.getByRole('button', { name: freeDay(date) }).click();
  }
  const form = visitor.getByRole('form', { name: 'Request a stay' });
  await form.getByLabel(/^Your name( \*)?$/).fill('Rui Visitor');
  await form.getByLabel(/^Email( \*)?$/).fill(`rui-${suffix}@example.com`);
  await form.getByRole('button', { name: 'Send request' }).click();
  await expect(visitor.getByRole('status').filter({ hasText: 'Request sent' })).toBeVisible();
  const sentAt = Date.now();

  // The host's open dashboard: the bell counts it within seconds, no reload.
  await expect(page.getByRole('button', { name: /^Notifications, \d+ unread$/ })).toBeVisible({
    timeout: 5_000,
  });
  expect(Date.now() - sentAt).toBeLessThan(5_000);
  await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  const entry = page.getByRole('link', { name: new RegExp(`Rui Visitor asks to stay at ${title}`) });
  await expect(entry).toBeVisible();
  await entry.click();
  await expect(page).toHaveURL(new RegExp(`/app/listing/${listingId}/request/[0-9a-f-]{36}$`));
  await expect(page.getByRole('heading', { name: 'Request from Rui Visitor' })).toBeVisible();
  await visitorContext.close();
});
