import type { ListingCalendar, UpcomingPage } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addListing, addLock, dayIn, rentalPortal, requestStay, type RentalPortal } from './rental-helpers';
import { TestApp } from './test-app';

const LISBON = 'Europe/Lisbon';

let t: TestApp;
let owner: RentalPortal;
let stranger: RentalPortal;
let basicToken: string;
let lock: string;
let listingId: string;

beforeAll(async () => {
  t = await TestApp.start({ STAY_ACCESS_CHECK_MS: '0', ICAL_SYNC_MINUTES: '0' });
  owner = await rentalPortal(t);
  stranger = await rentalPortal(t);
  const basic = await t.signUp();
  await t.addMember(owner.portalId, basic.userId, 'user');
  basicToken = basic.token;
  lock = (await addLock(t, owner)).id;
  listingId = await addListing(t, owner, [lock], { checkInTime: '15:00', checkOutTime: '11:00' });
  const cleaner = await t.request({
    method: 'POST',
    url: `/api3/listing/${listingId}/accessList/new`,
    token: owner.token,
    payload: { name: 'Cleaner', anchor: 'check_out', startOffset: 0, endOffset: 180 },
  });
  expect(cleaner.statusCode, cleaner.body).toBe(201);
});
afterAll(() => t.close());

/** The basic user acts in the owner's portal (their own is another). */
const portalOf = (token: string) => (token === basicToken ? owner.portalId : undefined);
const calendarOf = (id: string, query = '', token = owner.token) =>
  t.request({ method: 'GET', url: `/api3/device/${id}/calendar${query}`, token, portal: portalOf(token) });
const changeCalendar = (id: string, payload: object, token = owner.token) =>
  t.request({ method: 'POST', url: `/api3/device/${id}/calendar`, token, payload, portal: portalOf(token) });
const act = (id: string, stayId: string, payload: object) =>
  t.request({ method: 'POST', url: `/api3/device/${id}/request/${stayId}`, token: owner.token, payload });

async function approvedStay(id: string, from: number, to: number, name = 'Ana Guest') {
  const request = await requestStay(t, id, {
    name,
    startDate: dayIn(LISBON, from),
    endDate: dayIn(LISBON, to),
  });
  expect(request.statusCode, request.body).toBe(201);
  const stayId = request.json()._id as string;
  const approval = await act(id, stayId, { action: 'approve' });
  expect(approval.statusCode, approval.body).toBe(200);
  return stayId;
}

describe('a listing calendar (GET/POST device/{listingId}/calendar)', () => {
  let stayId: string;
  let requestId: string;

  beforeAll(async () => {
    stayId = await approvedStay(listingId, 5, 8, 'Bea Booked');
    const pending = await requestStay(t, listingId, {
      name: 'Carl Pending',
      startDate: dayIn(LISBON, 20),
      endDate: dayIn(LISBON, 22),
    });
    requestId = pending.json()._id;
  });

  it('shows bookings, pending requests and the access windows they give', async () => {
    const response = await calendarOf(listingId, `?from=${dayIn(LISBON, 0)}&to=${dayIn(LISBON, 40)}`);
    expect(response.statusCode, response.body).toBe(200);
    const calendar: ListingCalendar = response.json();
    expect(calendar).toMatchObject({ listingId, timeZone: LISBON, today: dayIn(LISBON, 0) });
    expect(calendar.bookings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          _id: stayId,
          state: 'approved',
          guestName: 'Bea Booked',
          nights: 3,
          checkInTime: '15:00',
          checkOutTime: '11:00',
          overlaps: [],
        }),
        expect.objectContaining({ _id: requestId, state: 'requested', guestName: 'Carl Pending' }),
      ]),
    );
    // The guest's window runs from check-in to check-out; the cleaner's from check-out for 3 h.
    const windows = calendar.windows.filter((w) => w.stayId === stayId);
    const guest = windows.find((w) => w.holder === 'guest')!;
    const cleaner = windows.find((w) => w.holder === 'access_list')!;
    expect(new Date(guest.until).getTime()).toBe(new Date(cleaner.from).getTime());
    expect(new Date(cleaner.until).getTime() - new Date(cleaner.from).getTime()).toBe(3 * 3600_000);
    // A pending request gives no access yet.
    expect(calendar.windows.some((w) => w.stayId === requestId)).toBe(false);
  });

  it('defaults to this month and the two after it, and refuses bad ranges with a 400', async () => {
    const calendar: ListingCalendar = (await calendarOf(listingId)).json();
    expect(calendar.from).toBe(`${dayIn(LISBON, 0).slice(0, 7)}-01`);
    for (const query of [
      `?from=${dayIn(LISBON, 10)}&to=${dayIn(LISBON, 5)}`,
      `?from=${dayIn(LISBON, 0)}&to=${dayIn(LISBON, 500)}`,
      '?from=tomorrow',
      '?from=2026-02-30',
    ]) {
      const response = await calendarOf(listingId, query);
      expect(response.statusCode, query).toBe(400);
    }
  });

  it('blocks nights: closed to requests, refused for approvals, shown as taken on the public page', async () => {
    const blocked = await changeCalendar(listingId, {
      action: 'block',
      startDate: dayIn(LISBON, 30),
      endDate: dayIn(LISBON, 33),
      note: 'Painting',
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    const blockId = blocked.json().block._id as string;
    expect(blocked.json().block).toMatchObject({ source: 'owner', note: 'Painting', feedName: null });

    const asked = await requestStay(t, listingId, {
      startDate: dayIn(LISBON, 31),
      endDate: dayIn(LISBON, 34),
    });
    expect(asked.statusCode).toBe(400);
    expect(asked.json().error.details[0].path).toBe('body.startDate');

    // A request made before the block cannot be approved over it.
    const early = await requestStay(t, listingId, {
      startDate: dayIn(LISBON, 28),
      endDate: dayIn(LISBON, 31),
    });
    expect(early.statusCode, early.body).toBe(400);
    const before = await requestStay(t, listingId, {
      startDate: dayIn(LISBON, 26),
      endDate: dayIn(LISBON, 29),
    });
    expect(before.statusCode, before.body).toBe(201);
    const change = await act(listingId, before.json()._id, {
      action: 'approve',
      startDate: dayIn(LISBON, 29),
      endDate: dayIn(LISBON, 31),
    });
    expect(change.statusCode).toBe(409);
    expect(change.json().error.message).toContain('blocked');

    const page = (await t.request({ method: 'GET', url: `/api3/listing/${listingId}/public` })).json();
    expect(page.taken).toEqual(
      expect.arrayContaining([{ startDate: dayIn(LISBON, 30), endDate: dayIn(LISBON, 33) }]),
    );
    expect(JSON.stringify(page)).not.toContain('Painting');

    const calendar: ListingCalendar = (
      await calendarOf(listingId, `?from=${dayIn(LISBON, 0)}&to=${dayIn(LISBON, 60)}`)
    ).json();
    expect(calendar.blocks.map((b) => b._id)).toContain(blockId);

    const opened = await changeCalendar(listingId, { action: 'unblock', blockId });
    expect(opened.statusCode, opened.body).toBe(200);
    expect(
      (await requestStay(t, listingId, { startDate: dayIn(LISBON, 31), endDate: dayIn(LISBON, 33) }))
        .statusCode,
    ).toBe(201);

    const log = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('portal_id', '=', owner.portalId)
      .where('action', 'like', 'listing.calendar.%')
      .execute();
    expect(log.map((e) => e.action).sort()).toEqual(['listing.calendar.block', 'listing.calendar.unblock']);
  });

  it('refuses a block over an approved stay (409) and answers 400, 404 as it should', async () => {
    const over = await changeCalendar(listingId, {
      action: 'block',
      startDate: dayIn(LISBON, 6),
      endDate: dayIn(LISBON, 7),
    });
    expect(over.statusCode).toBe(409);
    expect(over.json().error.message).toContain('Bea Booked');
    const cases: [object, number][] = [
      [{ action: 'block', startDate: dayIn(LISBON, 50), endDate: dayIn(LISBON, 50) }, 400],
      [{ action: 'block', startDate: 'soon', endDate: dayIn(LISBON, 50) }, 400],
      [{ action: 'paint' }, 400],
      [{ action: 'unblock', blockId: '00000000-0000-4000-8000-000000000000' }, 404],
      [{ action: 'unblock', blockId: '../etc' }, 400],
    ];
    for (const [payload, status] of cases) {
      expect((await changeCalendar(listingId, payload)).statusCode, JSON.stringify(payload)).toBe(status);
    }
  });

  it("keeps calendars to their portal: 401 without sign-in, 403 for a basic user, 404 for another portal's listing", async () => {
    expect((await t.request({ method: 'GET', url: `/api3/device/${listingId}/calendar` })).statusCode).toBe(
      401,
    );
    expect((await calendarOf(listingId, '', basicToken)).statusCode).toBe(403);
    expect(
      (await changeCalendar(listingId, { action: 'unblock', blockId: 'x' }, basicToken)).statusCode,
    ).toBe(403);
    const foreign = await calendarOf(listingId, '', stranger.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Bea Booked');
    const foreignBlock = await changeCalendar(
      listingId,
      { action: 'block', startDate: dayIn(LISBON, 70), endDate: dayIn(LISBON, 71) },
      stranger.token,
    );
    expect(foreignBlock.statusCode).toBe(404);
  });
});

describe('the portal’s next arrivals and departures (GET calendar/upcoming)', () => {
  let otherListing: string;

  beforeAll(async () => {
    const second = (await addLock(t, owner, { name: 'Studio door' })).id;
    otherListing = await addListing(t, owner, [second], { title: 'Studio' });
    await approvedStay(otherListing, 0, 2, 'Dora Today');
    await approvedStay(otherListing, 3, 5, 'Eli Later');
  });

  const upcoming = (query = '', token = owner.token) =>
    t.request({ method: 'GET', url: `/api3/calendar/upcoming${query}`, token, portal: portalOf(token) });

  it('lists arrivals and departures in date order, departures first on a shared day', async () => {
    const response = await upcoming('?days=8');
    expect(response.statusCode, response.body).toBe(200);
    const page: UpcomingPage = response.json();
    const rows = page.items.map((r) => `${r.date} ${r.kind} ${r.guestName}`);
    expect(rows).toEqual(
      expect.arrayContaining([
        `${dayIn(LISBON, 0)} arrival Dora Today`,
        `${dayIn(LISBON, 2)} departure Dora Today`,
        `${dayIn(LISBON, 3)} arrival Eli Later`,
        `${dayIn(LISBON, 5)} departure Eli Later`,
        `${dayIn(LISBON, 5)} arrival Bea Booked`,
        `${dayIn(LISBON, 8)} departure Bea Booked`,
      ]),
    );
    expect(rows.indexOf(`${dayIn(LISBON, 5)} departure Eli Later`)).toBeLessThan(
      rows.indexOf(`${dayIn(LISBON, 5)} arrival Bea Booked`),
    );
    expect(page.items.find((r) => r.kind === 'arrival' && r.guestName === 'Dora Today')).toMatchObject({
      time: '15:00',
      listingTitle: 'Studio',
      timeZone: LISBON,
    });
    // Pending requests are not arrivals.
    expect(rows.some((r) => r.includes('Carl Pending'))).toBe(false);
  });

  it('pages, filters by kind or listing, searches, and refuses an unknown kind', async () => {
    const today: UpcomingPage = (await upcoming('?days=0')).json();
    expect(today.items.map((r) => r.guestName)).toEqual(['Dora Today']);
    const departures: UpcomingPage = (await upcoming('?days=8&filterBy=kind&filterValue=departure')).json();
    expect(departures.items.every((r) => r.kind === 'departure')).toBe(true);
    const studio: UpcomingPage = (
      await upcoming(`?days=8&filterBy=listingId&filterValue=${otherListing}`)
    ).json();
    expect(new Set(studio.items.map((r) => r.listingTitle))).toEqual(new Set(['Studio']));
    const paged: UpcomingPage = (await upcoming('?days=8&limit=2&skip=1')).json();
    expect(paged.items).toHaveLength(2);
    expect(paged.total).toBeGreaterThanOrEqual(6);
    const searched: UpcomingPage = (await upcoming('?days=8&search=eli')).json();
    expect(searched.items.map((r) => r.guestName)).toEqual(['Eli Later', 'Eli Later']);
    expect((await upcoming('?filterBy=kind&filterValue=party')).statusCode).toBe(400);
    expect((await upcoming('?days=400')).statusCode).toBe(400);
  });

  it("is for the portal's admins, and shows another portal nothing", async () => {
    expect((await upcoming('', basicToken)).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/api3/calendar/upcoming' })).statusCode).toBe(401);
    const foreign: UpcomingPage = (await upcoming('?days=30', stranger.token)).json();
    expect(foreign).toEqual({ items: [], total: 0 });
    const probing: UpcomingPage = (
      await upcoming(`?days=30&filterBy=listingId&filterValue=${otherListing}`, stranger.token)
    ).json();
    expect(probing.items).toEqual([]);
  });
});
