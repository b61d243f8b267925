import { expect, test, type Page } from '@playwright/test';
import { axeViolations } from './axe';
import { demo, signIn } from './helpers';
import { linkTo, waitForMail } from './mailbox';

// Rentals, part R2 (issue 12): the rental center lists today's arrival (live, as the owner
// approves it), with its access on each lock; after a stay ends its guest is mailed a review link,
// reviews it, and the review shows on the listing's public page and in the owner's listing, where
// the owner answers it. The new screens are also checked with axe (WCAG 2.1 AA).

const LISBON = 'Europe/Lisbon';

/** Calls the API from the page (signed in or not) with its stored token, if any. */
function api(page: Page, method: string, path: string, body?: unknown) {
  return page.evaluate(
    async ({ method, path, body }) => {
      const token = (localStorage.getItem('authToken') ?? '').replace(/^"|"$/g, '');
      const response = await fetch(`/api3/${path}`, {
        method,
        headers: {
          ...(token && { authorization: `Bearer ${token}` }),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return {
        status: response.status,
        body: (response.status === 204 ? null : await response.json()) as Record<string, unknown>,
      };
    },
    { method, path, body },
  );
}

/** Today on Lisbon's calendar plus `days`. */
function lisbonDay(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: LISBON }).format(new Date());
  const at = new Date(`${today}T12:00:00Z`);
  at.setUTCDate(at.getUTCDate() + days);
  return at.toISOString().slice(0, 10);
}

async function expectAccessible(page: Page, what: string) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('[role="status"][aria-label^="Loading"]')).toHaveCount(0);
  const violations = await axeViolations(page);
  expect(
    violations.map(
      (v) =>
        `${v.id}: ${v.help} ${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 200)}`).join(', ')}`,
    ),
    `accessibility of ${what}`,
  ).toEqual([]);
}

test('the rental center lists today’s arrival as it is approved; a review after the stay shows on the listing page', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page, demo.admin.email, demo.admin.password);
  await expect(page).toHaveURL(/\/app\/dashboard$/);

  // A lock and a published listing in Lisbon, made through the API (rental.spec.ts makes one in the app).
  const suffix = Date.now().toString(36);
  const lock = await api(page, 'POST', 'portal/device/new', {
    name: `Tagus door ${suffix}`,
    model: 'latchkey-sim',
    timeZone: LISBON,
  });
  expect(lock.status).toBe(201);
  const deviceId = (lock.body.device as { _id: string })._id;
  const title = `Tagus studio ${suffix}`;
  const listing = await api(page, 'POST', 'listing/new', {
    title,
    deviceIds: [deviceId],
    published: true,
    checkInTime: '15:00',
    checkOutTime: '11:00',
  });
  expect(listing.status).toBe(201);
  const listingId = listing.body._id as string;

  // The rental center is open when a visitor's request for today is approved: it shows up live.
  await page.goto('/app/rentalcenter');
  await expect(page.getByRole('heading', { level: 1, name: 'Rental center' })).toBeVisible();
  const arrivals = page.getByRole('region', { name: 'Arriving today' });
  // The demo's imported Airbnb reservation arrives today too.
  await expect(arrivals.getByText('Airbnb guest')).toBeVisible();
  await expectAccessible(page, '/app/rentalcenter');

  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  await visitor.goto(`/s/r/${listingId}`);
  const guest = `Rui Arriving ${suffix}`;
  const asked = await api(visitor, 'POST', `device/${listingId}/request`, {
    name: guest,
    email: `rui-${suffix}@example.com`,
    startDate: lisbonDay(0),
    endDate: lisbonDay(2),
  });
  expect(asked.status).toBe(201);
  await expect(page.getByRole('region', { name: 'Requests to answer' }).getByText(guest)).toBeVisible({
    timeout: 15_000,
  });
  const approved = await api(page, 'POST', `device/${listingId}/request/${asked.body._id}`, {
    action: 'approve',
  });
  expect(approved.status).toBe(200);
  const arrival = arrivals.getByRole('listitem').filter({ hasText: guest });
  await expect(arrival).toBeVisible({ timeout: 15_000 });
  await expect(arrival).toContainText(`from 15:00 · ${title}`);
  // No lock is connected: its access is on its way, on the one lock of the listing.
  const onLocks = arrival.getByRole('list', { name: `${guest}'s access on each lock` });
  await expect(onLocks).toContainText(`Tagus door ${suffix}`);
  await expect(onLocks).toContainText(/Sent, waiting for the lock|Being prepared/);

  // Another guest's stay ends today: booked ahead, then the owner records an early check-out
  // (the stay moved to end today at midnight). Within a second the review mail goes out.
  const leaverEmail = `lea-${suffix}@example.com`;
  const later = await api(visitor, 'POST', `device/${listingId}/request`, {
    name: `Lea Leaving ${suffix}`,
    email: leaverEmail,
    startDate: lisbonDay(20),
    endDate: lisbonDay(23),
  });
  expect(later.status).toBe(201);
  const stayPath = `device/${listingId}/request/${later.body._id}`;
  expect((await api(page, 'POST', stayPath, { action: 'approve' })).status).toBe(200);
  const shortened = await api(page, 'POST', stayPath, {
    action: 'change',
    startDate: lisbonDay(-3),
    endDate: lisbonDay(0),
    checkOutTime: '00:00',
  });
  expect(shortened.status, JSON.stringify(shortened.body)).toBe(200);
  const mail = await waitForMail(leaverEmail, /How was your stay at/);
  const reviewLink = linkTo(mail, '/review');

  // The guest reviews the stay from the mail's link, signed in nowhere.
  await visitor.goto(reviewLink);
  await expect(visitor.getByRole('heading', { name: `Your stay at ${title}` })).toBeVisible();
  await expectAccessible(visitor, '/review');
  await visitor.getByRole('button', { name: 'Publish review' }).click();
  await expect(visitor.getByText('Choose 1 to 5 stars').first()).toBeVisible();
  await visitor.getByRole('radio', { name: '5 ★ Excellent' }).check();
  await visitor
    .getByLabel('Tell future guests and the host about it')
    .fill('Sunny, quiet, and the code just worked.');
  await visitor.getByRole('button', { name: 'Publish review' }).click();
  await expect(visitor.getByRole('status').filter({ hasText: 'Thank you for your review' })).toBeVisible();

  // It shows on the listing's public page, under the guest's first name and the month.
  await visitor.goto(`/s/r/${listingId}`);
  const reviews = visitor.getByRole('region', { name: 'Reviews' });
  await expect(reviews).toContainText('Sunny, quiet, and the code just worked.');
  await expect(reviews).toContainText('Lea');
  await expect(reviews).not.toContainText('Leaving');
  await expect(reviews).toContainText('5.0 of 5 · 1 review');

  // The owner sees it on the listing and answers; the answer shows on the public page too.
  await page.goto(`/app/listing/${listingId}`);
  // The listing page is in tabs (issue 19, item 8): reviews have theirs.
  await page.getByRole('tab', { name: 'Reviews' }).click();
  const ownerReviews = page.getByRole('region', { name: 'Reviews' });
  await expect(ownerReviews).toContainText('Sunny, quiet, and the code just worked.');
  await ownerReviews.getByRole('button', { name: 'Answer' }).click();
  await ownerReviews.getByLabel('Your answer').fill('Thank you, Lea!');
  await ownerReviews.getByRole('button', { name: 'Save answer' }).click();
  await expect(ownerReviews.getByText('Thank you, Lea!')).toBeVisible();
  // The listing's calendar and calendar sync, with this month's bookings, are accessible too.
  await page.getByRole('tab', { name: 'Stays & calendar' }).click();
  await expect(
    page.getByRole('region', { name: 'Calendar' }).getByText(`Rui Arriving ${suffix}`).first(),
  ).toBeVisible();
  // (The "Answer saved" notification goes first: Mantine's notifications are checked elsewhere.)
  await expect(page.getByText("Lea's review")).toBeVisible();
  await expect(page.getByText("Lea's review")).toBeHidden({ timeout: 15_000 });
  await expectAccessible(page, `/app/listing/${listingId}`);
  await visitor.reload();
  await expect(visitor.getByRole('region', { name: 'Reviews' })).toContainText('Thank you, Lea!');
  await expectAccessible(visitor, `/s/r/${listingId} with its reviews`);
  await visitorContext.close();

  // The same screens in the dark scheme (the app follows the device's).
  const dark = await (await browser.newContext({ colorScheme: 'dark' })).newPage();
  await signIn(dark, demo.admin.email, demo.admin.password);
  await expect(dark).toHaveURL(/\/app\/dashboard$/);
  for (const path of ['/app/rentalcenter', `/app/listing/${listingId}`, `/s/r/${listingId}`, reviewLink]) {
    await dark.goto(path);
    await expect(dark.getByRole('heading', { level: 1 })).toBeVisible();
    await expectAccessible(dark, `${path} (dark)`);
  }
});
