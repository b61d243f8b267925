import { formatCalendarRange } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/base/mail/mail.repository';
import { addListing, addLock, dayIn, rentalPortal, requestStay, type RentalPortal } from './rental-helpers';
import { TestApp } from './test-app';

// Issue 19, items 5 and 6: every entry of "who can open" says whose it is (the stay and its dates)
// and what it is; the Guests tab lists the stays' guests; "Add person" gives a code and a schedule
// in one step; Undo after removing access gives it back with the same schedule.

const LISBON = 'Europe/Lisbon';
const SCHEDULE = { windows: [{ days: [1, 2, 3], start: '07:00', end: '15:00' }] };

let t: TestApp;
let owner: RentalPortal;
let other: RentalPortal;

beforeAll(async () => {
  t = await TestApp.start({ STAY_ACCESS_CHECK_MS: '0' });
  owner = await rentalPortal(t);
  other = await rentalPortal(t);
});
afterAll(() => t.close());

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
  t.request({ method, url: `/api3/${url}`, token, ...(payload && { payload }) });

async function approvedStay(listingId: string, name: string, startDate: string, endDate: string) {
  const requested = await requestStay(t, listingId, { name, startDate, endDate });
  expect(requested.statusCode, requested.body).toBe(201);
  const id = requested.json()._id as string;
  const approved = await call(owner.token, 'POST', `device/${listingId}/request/${id}`, {
    action: 'approve',
  });
  expect(approved.statusCode, approved.body).toBe(200);
  return id;
}

describe("a lock's stay guests", () => {
  let lockId: string;
  let listingId: string;
  let stayId: string;
  const start = dayIn(LISBON, 5);
  const end = dayIn(LISBON, 8);

  beforeAll(async () => {
    lockId = (await addLock(t, owner, { name: 'Main entrance', timeZone: LISBON })).id;
    listingId = await addListing(t, owner, [lockId], { title: 'Park flat' });
    stayId = await approvedStay(listingId, 'Marco Visitor', start, end);
  });

  it('are named by their stay and dates, once per credential kind, in who can open', async () => {
    const access = await call(owner.token, 'GET', `portal/device/${lockId}/access`);
    expect(access.statusCode, access.body).toBe(200);
    const marco = access.json().others.filter((o: { holderType: string }) => o.holderType === 'guest');
    const name = `Stay guest: Marco Visitor, ${formatCalendarRange(start, end)}`;
    expect(marco).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name, kind: 'code', stay: { _id: stayId, listingId } }),
        expect.objectContaining({ name, kind: 'qr', stay: { _id: stayId, listingId } }),
      ]),
    );
    expect(marco).toHaveLength(2);
  });

  it('are named the same way on the Sync tab', async () => {
    // The stay's credentials reach the lock's set after the approval commits: wait for that.
    await t.app.deviceLink.flushScheduledSyncs();
    const sync = await call(owner.token, 'GET', `device/${lockId}/sync`);
    expect(sync.statusCode, sync.body).toBe(200);
    const holders = sync.json().credentials.map((c: { holder: string }) => c.holder);
    expect(holders.filter((h: string) => h.startsWith('Stay guest: Marco Visitor, '))).toHaveLength(2);
    expect(holders).not.toContain('Guest');
  });

  it("are listed on the lock's Guests tab with the stay's dates, and only in its portal", async () => {
    const guests = await call(owner.token, 'GET', `portal/device/${lockId}/stayGuests`);
    expect(guests.statusCode, guests.body).toBe(200);
    expect(guests.json()).toEqual([
      expect.objectContaining({
        stayId,
        listingId,
        listingTitle: 'Park flat',
        guestName: 'Marco Visitor',
        startDate: start,
        endDate: end,
        credentials: ['code', 'qr'],
      }),
    ]);
    // Another portal's admin learns nothing, whatever the ids: the lock is not theirs.
    const foreign = await call(other.token, 'GET', `portal/device/${lockId}/stayGuests`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('Marco');
    // And a lock of their own lists none of this portal's stays.
    const theirLock = (await addLock(t, other, { name: 'Their door' })).id;
    expect((await call(other.token, 'GET', `portal/device/${theirLock}/stayGuests`)).json()).toEqual([]);
  });
});

describe('"Add person" with a code and a schedule', () => {
  let lockId: string;
  beforeAll(async () => {
    lockId = (await addLock(t, owner, { name: 'Office door', timeZone: LISBON })).id;
  });

  it('invites, gives the lock, the schedule and the code in one request', async () => {
    const added = await call(owner.token, 'POST', 'user/invite', {
      email: 'nora@example.com',
      firstName: 'Nora',
      deviceIds: [lockId],
      accessCode: '482915',
      schedule: SCHEDULE,
    });
    expect(added.statusCode, added.body).toBe(201);
    const userId = added.json().member._id as string;
    expect(added.json().member.status).toBe('invited');
    const schedule = await call(owner.token, 'GET', `portal/device/${lockId}/schedule/${userId}`);
    expect(schedule.json()).toEqual({ schedule: SCHEDULE });
    const detail = await call(owner.token, 'GET', `portal/user/${userId}`);
    expect(detail.json().accessCode).toBe('482915');
    expect(await listMailTo(t.app.db, 'nora@example.com')).toHaveLength(1);
  });

  it('refuses a code someone else holds with a 400 on the field, adding nobody and mailing nobody', async () => {
    const refused = await call(owner.token, 'POST', 'user/invite', {
      email: 'otto@example.com',
      deviceIds: [lockId],
      accessCode: '482915',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details).toEqual([expect.objectContaining({ path: 'body.accessCode' })]);
    expect((await call(owner.token, 'GET', 'portal/users?search=otto')).json().total).toBe(0);
    expect(await listMailTo(t.app.db, 'otto@example.com')).toHaveLength(0);
  });

  it('refuses a schedule without a lock to apply it to', async () => {
    const refused = await call(owner.token, 'POST', 'user/invite', {
      email: 'pia@example.com',
      schedule: SCHEDULE,
    });
    expect(refused.statusCode).toBe(400);
    expect((await call(owner.token, 'GET', 'portal/users?search=pia')).json().total).toBe(0);
  });
});

describe('undoing a removal of access', () => {
  it('gives the access back with the same schedule; a removal alone leaves no schedule behind', async () => {
    const lockId = (await addLock(t, owner, { name: 'Back gate', timeZone: LISBON })).id;
    const added = await call(owner.token, 'POST', 'user/invite', {
      email: 'rita@example.com',
      deviceIds: [lockId],
      schedule: SCHEDULE,
    });
    const userId = added.json().member._id as string;
    const link = `user/${userId}/device/${lockId}`;

    expect((await call(owner.token, 'DELETE', link)).statusCode).toBe(204);
    expect((await call(owner.token, 'GET', `device/${lockId}/users`)).json()).toEqual([]);

    // Undo: the grant with the schedule the screen showed.
    expect((await call(owner.token, 'PUT', link, { schedule: SCHEDULE })).statusCode).toBe(204);
    const users = (await call(owner.token, 'GET', `device/${lockId}/users`)).json();
    expect(users).toEqual([expect.objectContaining({ _id: userId, schedule: SCHEDULE })]);

    // Removed and given again later without one: at any time, not an old limit nobody sees.
    await call(owner.token, 'DELETE', link);
    const again = await call(owner.token, 'PUT', link);
    expect(again.statusCode, again.body).toBe(204);
    expect((await call(owner.token, 'GET', `device/${lockId}/users`)).json()).toEqual([
      expect.objectContaining({ _id: userId, schedule: null }),
    ]);
  });

  it("refuses a malformed schedule and another portal's lock, changing nothing", async () => {
    const lockId = (await addLock(t, owner, { name: 'Side door', timeZone: LISBON })).id;
    const added = await call(owner.token, 'POST', 'user/invite', { email: 'sam@example.com' });
    const userId = added.json().member._id as string;
    const bad = await call(owner.token, 'PUT', `user/${userId}/device/${lockId}`, {
      schedule: { windows: [{ days: [9], start: '07:00', end: '15:00' }] },
    });
    expect(bad.statusCode).toBe(400);
    expect((await call(owner.token, 'GET', `device/${lockId}/users`)).json()).toEqual([]);
    const foreign = await call(other.token, 'PUT', `user/${userId}/device/${lockId}`, { schedule: SCHEDULE });
    expect(foreign.statusCode).toBe(404);
    expect((await call(owner.token, 'GET', `device/${lockId}/users`)).json()).toEqual([]);
  });
});
