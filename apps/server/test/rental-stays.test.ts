import crypto from 'node:crypto';
import {
  addDaysToDate,
  CREDENTIAL_KINDS,
  evaluateAccess,
  formatCalendarDate,
  localWallTime,
  zonedInstant,
  type CredentialSet,
  type Stay,
} from '@latchkey/shared';
import { SimulatedLock } from '@latchkey/locksim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  addListing,
  addLock,
  dayIn,
  desiredSet,
  mailTo,
  rentalPortal,
  requestStay,
  type RentalPortal,
} from './rental-helpers';
import { TestApp } from './test-app';

const LISBON = 'Europe/Lisbon';

let t: TestApp;
let owner: RentalPortal;

beforeAll(async () => {
  t = await TestApp.start({
    STAY_ACCESS_CHECK_MS: '0',
    STAY_ACCESS_ALERT_MINUTES: '10',
    RENTAL_REQUESTS_PER_IP: '3',
  });
  owner = await rentalPortal(t);
});
afterAll(() => t.close());

async function stayOf(listingId: string, stayId: string, token = owner.token): Promise<Stay> {
  const response = await t.request({
    method: 'GET',
    url: `/api3/device/${listingId}/request/${stayId}`,
    token,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

function act(listingId: string, stayId: string, payload: object, token = owner.token) {
  return t.request({ method: 'POST', url: `/api3/device/${listingId}/request/${stayId}`, token, payload });
}

async function requested(listingId: string, startDate: string, endDate: string, extra: object = {}) {
  const response = await requestStay(t, listingId, { startDate, endDate, ...extra });
  expect(response.statusCode, response.body).toBe(201);
  return response.json()._id as string;
}

async function approved(listingId: string, startDate: string, endDate: string, extra: object = {}) {
  const id = await requested(listingId, startDate, endDate, extra);
  const response = await act(listingId, id, { action: 'approve' });
  expect(response.statusCode, response.body).toBe(200);
  return id;
}

const entryOf = (set: CredentialSet | null, code: string) =>
  set?.entries.find((e) => e.kind === 'code' && e.secret === code);

/** The first date from `from` on which the zone's offset at noon differs from the day before's. */
function nextOffsetChange(timeZone: string, from: string): string {
  for (let date = from, i = 0; i < 400; i++, date = addDaysToDate(date, 1)) {
    const offset = (d: string) => zonedInstant(d, '12:00', timeZone).getTime() - Date.parse(`${d}T12:00:00Z`);
    if (offset(date) !== offset(addDaysToDate(date, -1))) return date;
  }
  throw new Error('no daylight-saving change within 400 days');
}

describe('requests from the public page', () => {
  let lock: string;
  let listingId: string;

  beforeAll(async () => {
    lock = (await addLock(t, owner)).id;
    listingId = await addListing(t, owner, [lock], {
      minNights: 2,
      maxNights: 10,
      nightlyPrice: 12_000,
      currency: 'EUR',
    });
  });

  it('stores a request, mails the requester and the hosts, and shows it to the owner', async () => {
    const email = 'ana.request@example.com';
    const response = await requestStay(t, listingId, {
      email,
      startDate: dayIn(LISBON, 20),
      endDate: dayIn(LISBON, 23),
      note: 'Arriving late',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ state: 'requested' });
    const stay = await stayOf(listingId, response.json()._id);
    expect(stay).toMatchObject({
      state: 'requested',
      source: 'request',
      nights: 3,
      note: 'Arriving late',
      accessState: 'none',
      // The total the request page showed, kept with the request.
      quote: { nights: 3, nightly: 12_000, total: 36_000, currency: 'EUR' },
    });
    expect(stay.capacity).toEqual([expect.objectContaining({ deviceId: lock, fits: true })]);
    expect((await mailTo(t, email)).map((m) => m.template)).toEqual(['stay_request_received']);
    const hostMail = await mailTo(
      t,
      (
        await t.app.db
          .selectFrom('users')
          .select('email')
          .where('id', '=', owner.userId)
          .executeTakeFirstOrThrow()
      ).email,
    );
    expect(
      hostMail.some(
        (m) =>
          m.template === 'stay_request_host' &&
          m.text_body.includes(`/app/listing/${listingId}/request/`) &&
          m.text_body.includes('Quoted on the request page: 3 nights × €120.00 = €360.00'),
      ),
    ).toBe(true);
    // A later price change does not rewrite what the guest was quoted.
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api3/listing/${listingId}`,
          token: owner.token,
          payload: {
            title: 'Sea view flat',
            deviceIds: [lock],
            published: true,
            minNights: 2,
            maxNights: 10,
            nightlyPrice: 15_000,
            currency: 'EUR',
          },
        })
      ).statusCode,
    ).toBe(200);
    expect((await stayOf(listingId, response.json()._id)).quote).toMatchObject({ total: 36_000 });
  });

  it('refuses bad dates, taken nights and stays outside the limits with a 400, storing nothing', async () => {
    await approved(listingId, dayIn(LISBON, 40), dayIn(LISBON, 43));
    const count = async () =>
      Number(
        (
          await t.app.db
            .selectFrom('stays')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('listing_id', '=', listingId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ startDate: dayIn(LISBON, -2), endDate: dayIn(LISBON, 1) }, 'body.startDate'],
      [{ startDate: dayIn(LISBON, 5), endDate: dayIn(LISBON, 5) }, 'body.endDate'],
      [{ startDate: dayIn(LISBON, 5), endDate: dayIn(LISBON, 6) }, 'body.endDate'],
      [{ startDate: dayIn(LISBON, 5), endDate: dayIn(LISBON, 25) }, 'body.endDate'],
      [{ startDate: dayIn(LISBON, 41), endDate: dayIn(LISBON, 44) }, 'body.startDate'],
      [{ startDate: '2026-02-30', endDate: dayIn(LISBON, 44) }, 'body.startDate'],
      [{ startDate: dayIn(LISBON, 5), endDate: dayIn(LISBON, 8), email: 'not an address' }, 'body.email'],
    ];
    for (const [body, path] of cases) {
      const response = await requestStay(t, listingId, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(
        response.json().error.details.map((d: { path: string }) => d.path),
        response.body,
      ).toContain(path);
    }
    expect(await count()).toBe(before);
    // A past arrival names the listing's today in the shared date format ("Nov 28, 2026").
    const past = await requestStay(t, listingId, { startDate: dayIn(LISBON, -2), endDate: dayIn(LISBON, 1) });
    expect(past.json().error.details[0].message).toContain(
      `today is ${formatCalendarDate(dayIn(LISBON, 0))} where the listing is`,
    );
    // The departure day of one stay is free for the next arrival.
    expect(
      (await requestStay(t, listingId, { startDate: dayIn(LISBON, 43), endDate: dayIn(LISBON, 45) }))
        .statusCode,
    ).toBe(201);
  });

  it('answers 404 for an unpublished or unknown listing, with nothing stored', async () => {
    const hidden = await addListing(t, owner, [lock], { published: false });
    expect(
      (await requestStay(t, hidden, { startDate: dayIn(LISBON, 5), endDate: dayIn(LISBON, 8) })).statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api3/listing/${hidden}/public` })).statusCode).toBe(404);
    expect(
      (await requestStay(t, crypto.randomUUID(), { startDate: dayIn(LISBON, 5), endDate: dayIn(LISBON, 8) }))
        .statusCode,
    ).toBe(404);
  });

  it('answers request spam from one address with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await requestStay(
        t,
        listingId,
        { startDate: dayIn(LISBON, 60 + i * 3), endDate: dayIn(LISBON, 62 + i * 3) },
        '10.9.9.9',
      );
      statuses.push(response.statusCode);
      if (response.statusCode === 429) expect(response.headers['retry-after']).toBeDefined();
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
  });

  it("pages and filters a listing's requests and stays, refusing an unknown filter", async () => {
    const page = (query: string) =>
      t.request({ method: 'GET', url: `/api3/listing/${listingId}/request?${query}`, token: owner.token });
    const all = (await page('limit=200')).json();
    expect(all.total).toBeGreaterThanOrEqual(3);
    const requestedOnly = (await page('filterBy=state&filterValue=requested')).json();
    expect(requestedOnly.items.every((s: { state: string }) => s.state === 'requested')).toBe(true);
    const upcoming = (
      await page('filterBy=when&filterValue=upcoming&sortBy=startDate&descending=true')
    ).json();
    const starts = upcoming.items.map((s: { startDate: string }) => s.startDate);
    expect(starts).toEqual([...starts].sort().reverse());
    expect((await page('limit=1&skip=1')).json().items).toHaveLength(1);
    expect((await page('filterBy=state&filterValue=lost')).statusCode).toBe(400);
    expect((await page('filterBy=when&filterValue=someday')).statusCode).toBe(400);
    expect((await page('sortBy=price')).statusCode).toBe(400);
    expect((await page('search=ana.request')).json().items).toHaveLength(1);
  });

  it('shows the public page no address, no guest and no code', async () => {
    const response = await t.request({ method: 'GET', url: `/api3/listing/${listingId}/public` });
    expect(response.statusCode).toBe(200);
    const body = response.body;
    expect(response.json()).toMatchObject({
      title: 'Sea view flat',
      minNights: 2,
      maxNights: 10,
      timeZone: LISBON,
      // The price as last saved (the first test raised it to 150.00).
      price: { nightly: 15_000, currency: 'EUR' },
    });
    expect(response.json().taken).toEqual(
      expect.arrayContaining([{ startDate: dayIn(LISBON, 40), endDate: dayIn(LISBON, 43) }]),
    );
    for (const secret of ['Rua Secreta', 'Ana Guest', '@example.com', 'guest_email', 'code'])
      expect(body).not.toContain(secret);
    // Without a price: null ("Price on request"), and a request keeps no quote.
    const unpriced = await addListing(t, owner, [(await addLock(t, owner)).id]);
    const page = await t.request({ method: 'GET', url: `/api3/listing/${unpriced}/public` });
    expect(page.json().price).toBeNull();
    const id = await requested(unpriced, dayIn(LISBON, 5), dayIn(LISBON, 7));
    expect((await stayOf(unpriced, id)).quote).toBeNull();
  });
});

describe('approval gives the guest access on the lock for exactly the stay', () => {
  let lock: string;
  let listingId: string;

  beforeAll(async () => {
    lock = (await addLock(t, owner, { name: 'Lisbon door' })).id;
    listingId = await addListing(t, owner, [lock], {
      checkInTime: '15:00',
      checkOutTime: '11:00',
      maxNights: 30,
    });
  });

  async function guestEntry(stayId: string) {
    const stay = await stayOf(listingId, stayId);
    const guest = stay.access.find((a) => a.holder === 'guest')!;
    return { stay, guest, entry: entryOf(await desiredSet(t, lock), guest.code) };
  }

  it('gives a 3-night Lisbon stay a code from check-in to check-out on the lock’s wall clock', async () => {
    const start = dayIn(LISBON, 10);
    const end = addDaysToDate(start, 3);
    const { guest, entry, stay } = await guestEntry(await approved(listingId, start, end));
    expect(stay.state).toBe('approved');
    expect(guest.code).toMatch(/^\d{6}$/);
    expect(entry).toMatchObject({
      holderType: 'guest',
      validFrom: zonedInstant(start, '15:00', LISBON).toISOString(),
    });
    expect(entry!.validUntil).toBe(zonedInstant(end, '11:00', LISBON).toISOString());
    const wall = (iso: string) => localWallTime(new Date(iso), LISBON);
    expect(wall(entry!.validFrom!)).toMatchObject({ date: start, minutes: 15 * 60 });
    expect(wall(entry!.validUntil!)).toMatchObject({ date: end, minutes: 11 * 60 });
  });

  it('counts check-in and check-out on the wall clock across a daylight-saving change', async () => {
    const change = nextOffsetChange(LISBON, dayIn(LISBON, 3));
    const start = addDaysToDate(change, -1);
    const end = addDaysToDate(change, 2);
    const { entry } = await guestEntry(await approved(listingId, start, end));
    const set = (await desiredSet(t, lock))!;
    const at = (date: string, time: string, minutes = 0) =>
      new Date(zonedInstant(date, time, LISBON).getTime() + minutes * 60_000);
    const code = { kind: 'code' as const, secret: entry!.secret };
    expect(evaluateAccess(set, code, at(start, '15:00', -1))).toMatchObject({
      granted: false,
      reason: 'not_yet_valid',
    });
    expect(evaluateAccess(set, code, at(start, '15:00'))).toMatchObject({ granted: true });
    expect(evaluateAccess(set, code, at(change, '03:30'))).toMatchObject({ granted: true });
    expect(evaluateAccess(set, code, at(end, '11:00', -1))).toMatchObject({ granted: true });
    expect(evaluateAccess(set, code, at(end, '11:00'))).toMatchObject({ granted: false, reason: 'expired' });
    // Three nights of wall-clock time with one hour more or less in between.
    const hours = (Date.parse(entry!.validUntil!) - Date.parse(entry!.validFrom!)) / 3_600_000;
    expect([67, 68, 69]).toContain(hours);
    expect(hours).not.toBe(68);
  });

  it('starts initialTime before check-in, not before startTime', async () => {
    const other = await addListing(t, owner, [(await addLock(t, owner)).id], {
      checkInTime: '16:00',
      initialTime: 600,
      startTime: '09:00',
    });
    const start = dayIn(LISBON, 12);
    const id = await approved(other, start, addDaysToDate(start, 2));
    const stay = await stayOf(other, id);
    expect(stay.accessFrom).toBe(zonedInstant(start, '09:00', LISBON).toISOString());
  });

  it('extends, shortens and moves the check-out on the lock’s next set at once', async () => {
    const start = dayIn(LISBON, 50);
    const id = await approved(listingId, start, addDaysToDate(start, 2));
    const { guest } = await guestEntry(id);
    // Extension: the guest keeps the code, the set changes without waiting for anything.
    expect(
      (await act(listingId, id, { action: 'change', startDate: start, endDate: addDaysToDate(start, 4) }))
        .statusCode,
    ).toBe(200);
    let entry = entryOf(await desiredSet(t, lock), guest.code);
    expect(entry!.validUntil).toBe(zonedInstant(addDaysToDate(start, 4), '11:00', LISBON).toISOString());
    // Late check-out.
    expect(
      (
        await act(listingId, id, {
          action: 'change',
          startDate: start,
          endDate: addDaysToDate(start, 4),
          checkOutTime: '14:00',
        })
      ).statusCode,
    ).toBe(200);
    entry = entryOf(await desiredSet(t, lock), guest.code);
    expect(entry!.validUntil).toBe(zonedInstant(addDaysToDate(start, 4), '14:00', LISBON).toISOString());
    // Shortening.
    expect(
      (await act(listingId, id, { action: 'change', startDate: start, endDate: addDaysToDate(start, 1) }))
        .statusCode,
    ).toBe(200);
    entry = entryOf(await desiredSet(t, lock), guest.code);
    expect(entry!.validUntil).toBe(zonedInstant(addDaysToDate(start, 1), '14:00', LISBON).toISOString());
    const stay = await stayOf(listingId, id);
    expect(stay).toMatchObject({ accessState: 'waiting', checkOutTime: '14:00', nights: 1 });
  });

  it('removes a cancelled stay from the lock’s next set', async () => {
    const start = dayIn(LISBON, 70);
    const id = await approved(listingId, start, addDaysToDate(start, 3));
    const { guest } = await guestEntry(id);
    expect(entryOf(await desiredSet(t, lock), guest.code)).toBeDefined();
    const response = await act(listingId, id, { action: 'cancel', reason: 'Pipe burst' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ state: 'cancelled', accessState: 'none' });
    const set = await desiredSet(t, lock);
    expect(entryOf(set, guest.code)).toBeUndefined();
    expect(set!.entries.some((e) => e.kind === 'remote' && e.secret === `guest:${guest._id}`)).toBe(false);
    expect((await mailTo(t, (await stayOf(listingId, id)).guestEmail))[0]!.template).toBe('stay_cancelled');
    // The lock's history names the stay's approval and its cancellation.
    const history = await t.request({
      method: 'GET',
      url: `/api3/device/${lock}/history?limit=100`,
      token: owner.token,
    });
    const ofThisStay = (
      history.json().items as { source: string; change?: { action: string; entityId: string } }[]
    )
      .filter((item) => item.source === 'change' && item.change!.entityId === id)
      .map((item) => item.change!.action);
    expect(ofThisStay).toEqual(['stay.cancel', 'stay.approve']);
  });

  it('refuses approving taken nights, and changes on the wrong state, with clear reasons', async () => {
    const start = dayIn(LISBON, 90);
    await approved(listingId, start, addDaysToDate(start, 3));
    const second = await requested(listingId, addDaysToDate(start, 5), addDaysToDate(start, 7));
    const overlapping = await act(listingId, second, {
      action: 'approve',
      startDate: addDaysToDate(start, 2),
      endDate: addDaysToDate(start, 4),
    });
    expect(overlapping.statusCode).toBe(409);
    expect(overlapping.json().error.message).toMatch(/nights are taken/);
    expect((await stayOf(listingId, second)).state).toBe('requested');
    expect((await act(listingId, second, { action: 'cancel' })).statusCode).toBe(409);
    expect((await act(listingId, second, { action: 'decline', reason: '' })).statusCode).toBe(400);
    const declined = await act(listingId, second, { action: 'decline', reason: 'Closed for works' });
    expect(declined.json()).toMatchObject({ state: 'declined', reason: 'Closed for works' });
    expect((await act(listingId, second, { action: 'approve' })).statusCode).toBe(409);
    expect((await act(listingId, second, { action: 'explode' })).statusCode).toBe(400);
  });
});

describe('the guest is mailed only once every lock has confirmed the access', () => {
  it('waits for the simulated lock, then mails the code, which opens inside the stay only', async () => {
    const { id: lock, secret } = await addLock(t, owner, { name: 'Sim flat' });
    const listingId = await addListing(t, owner, [lock]);
    const email = 'mia.guest@example.com';
    const start = dayIn(LISBON, 15);
    const stayId = await requested(listingId, start, addDaysToDate(start, 3), { email, name: 'Mia' });
    expect((await act(listingId, stayId, { action: 'approve' })).json().accessState).toBe('waiting');

    await t.app.rental.monitor.sweep();
    expect((await mailTo(t, email)).map((m) => m.template)).not.toContain('stay_access');
    // Published to the broker (retained), not confirmed: no lock has taken it.
    expect((await stayOf(listingId, stayId)).access[0]!.locks[0]!.state).toBe('sent');

    const simulated = new SimulatedLock({
      url: t.app.deviceLink.transport.url,
      deviceId: lock,
      secret,
      heartbeatSeconds: 0,
    });
    const applied = new Promise((resolve) => simulated.once('credentialsApplied', resolve));
    await simulated.start();
    try {
      await applied;
      await expect
        .poll(async () => (await stayOf(listingId, stayId)).access[0]!.locks[0]!.state)
        .toBe('confirmed');
      await t.app.rental.monitor.sweep();
      const stay = await stayOf(listingId, stayId);
      expect(stay.accessState).toBe('ready');
      const mails = (await mailTo(t, email)).filter((m) => m.template === 'stay_access');
      expect(mails).toHaveLength(1);
      const code = stay.access.find((a) => a.holder === 'guest')!.code;
      expect(mails[0]!.text_body).toContain(code);
      expect(mails[0]!.text_body).toMatch(/\/s\?t=S1\./);
      // Once: another sweep does not mail again.
      await t.app.rental.monitor.sweep();
      expect((await mailTo(t, email)).filter((m) => m.template === 'stay_access')).toHaveLength(1);
      // The lock decides on its own copy: inside the stay it opens, before it does not.
      const held = simulated.credentialSet!;
      const from = Date.parse(stay.accessFrom);
      expect(evaluateAccess(held, { kind: 'code', secret: code }, new Date(from - 60_000)).granted).toBe(
        false,
      );
      expect(evaluateAccess(held, { kind: 'code', secret: code }, new Date(from + 60_000)).granted).toBe(
        true,
      );
    } finally {
      await simulated.stop();
    }
  });

  it('alerts the owner when a lock refuses the code, and when none confirms in time', async () => {
    // A portal of its own: the sweeps below look at every stay waiting for its locks.
    const host = await rentalPortal(t);
    const approvedHere = async (listingId: string, startDate: string, endDate: string) => {
      const id = await requested(listingId, startDate, endDate);
      expect((await act(listingId, id, { action: 'approve' }, host.token)).statusCode).toBe(200);
      return id;
    };
    await t.app.rental.monitor.sweep(new Date(Date.now() + 60 * 60_000));
    const lock = await addLock(t, host, { name: 'Refusing door' });
    const listingId = await addListing(t, host, [lock.id]);
    const start = dayIn(LISBON, 25);
    const refusedStay = await approvedHere(listingId, start, addDaysToDate(start, 2));
    // A simulated lock whose memory holds one entry: the guest's second one does not fit.
    const tiny = new SimulatedLock({
      url: t.app.deviceLink.transport.url,
      deviceId: lock.id,
      secret: lock.secret,
      heartbeatSeconds: 0,
      model: { supportedKinds: CREDENTIAL_KINDS, capacity: 1 },
    });
    // The set with the stay (the lock may first get an older one, retained before the approval).
    await t.app.deviceLink.flushScheduledSyncs();
    const applied = new Promise<{ rejected: unknown[] }>((resolve) =>
      tiny.on('credentialsApplied', (set) => {
        if (set.rejected.length > 0) resolve(set);
      }),
    );
    await tiny.start();
    try {
      expect((await applied).rejected).toHaveLength(1);
      await expect
        .poll(async () => (await stayOf(listingId, refusedStay, host.token)).access[0]!.locks[0]!.state)
        .toBe('rejected');
    } finally {
      await tiny.stop();
    }
    await t.app.rental.monitor.sweep();
    const refused = await stayOf(listingId, refusedStay, host.token);
    expect(refused.accessState).toBe('failed');
    expect(refused.access[0]!.locks[0]).toMatchObject({ state: 'rejected', reason: 'storage_full' });
    const notifications = async () =>
      (await t.request({ method: 'GET', url: '/api3/portal/notifications', token: host.token })).json()
        .items as {
        kind: string;
        title: string;
      }[];
    expect((await notifications()).filter((n) => n.kind === 'stay_access')).toEqual([
      expect.objectContaining({ title: "A lock refused Ana Guest's access" }),
    ]);
    expect((await mailTo(t, refused.guestEmail)).map((m) => m.template)).not.toContain('stay_access');

    // A lock that never answers: alerted once, after STAY_ACCESS_ALERT_MINUTES (10).
    const silent = (await addLock(t, host, { name: 'Silent door' })).id;
    const silentListing = await addListing(t, host, [silent]);
    await approvedHere(silentListing, start, addDaysToDate(start, 2));
    await t.app.rental.monitor.sweep(new Date(Date.now() + 5 * 60_000));
    expect((await notifications()).filter((n) => n.kind === 'stay_access')).toHaveLength(1);
    await t.app.rental.monitor.sweep(new Date(Date.now() + 11 * 60_000));
    await t.app.rental.monitor.sweep(new Date(Date.now() + 12 * 60_000));
    expect((await notifications()).filter((n) => n.kind === 'stay_access').map((n) => n.title)).toContain(
      "Ana Guest's access is not on the locks yet",
    );
    expect((await notifications()).filter((n) => n.kind === 'stay_access')).toHaveLength(2);
  });
});

describe('live updates', () => {
  it("tells the portal's admins' screens when a request arrives, is answered and reaches the locks", async () => {
    const { id: lock, secret } = await addLock(t, owner, { name: 'Live door' });
    const listingId = await addListing(t, owner, [lock]);
    const published = vi.spyOn(t.app.live, 'publish');
    try {
      const start = dayIn(LISBON, 33);
      const stayId = await requested(listingId, start, addDaysToDate(start, 2));
      await act(listingId, stayId, { action: 'approve' });
      const simulated = new SimulatedLock({
        url: t.app.deviceLink.transport.url,
        deviceId: lock,
        secret,
        heartbeatSeconds: 0,
      });
      await simulated.start();
      try {
        await expect
          .poll(async () => (await stayOf(listingId, stayId)).access[0]!.locks[0]!.state)
          .toBe('confirmed');
        await t.app.rental.monitor.sweep();
      } finally {
        await simulated.stop();
      }
      const changes = published.mock.calls
        .map(([portalId, message]) => ({ portalId, message }))
        .filter(({ message }) => message.type === 'stay.changed');
      expect(changes.every(({ portalId }) => portalId === owner.portalId)).toBe(true);
      expect(changes.map(({ message }) => message.type === 'stay.changed' && message.stay)).toEqual([
        { _id: stayId, listingId, state: 'requested', accessState: 'none' },
        { _id: stayId, listingId, state: 'approved', accessState: 'waiting' },
        { _id: stayId, listingId, state: 'approved', accessState: 'ready' },
      ]);
    } finally {
      published.mockRestore();
    }
  });
});

describe('what hosts fight with', () => {
  it("gives the cleaner a window after check-out that follows the stay's changes", async () => {
    const lock = (await addLock(t, owner)).id;
    const listingId = await addListing(t, owner, [lock], { checkOutTime: '10:00' });
    const entry = await t.request({
      method: 'POST',
      url: `/api3/listing/${listingId}/accessList/new`,
      token: owner.token,
      payload: { name: 'Cleaner Rosa', anchor: 'check_out', startOffset: 0, endOffset: 180 },
    });
    expect(entry.statusCode, entry.body).toBe(201);
    const start = dayIn(LISBON, 30);
    const end = addDaysToDate(start, 2);
    const id = await approved(listingId, start, end);
    let cleaner = (await stayOf(listingId, id)).access.find((a) => a.holder === 'access_list')!;
    expect(cleaner).toMatchObject({
      name: 'Cleaner Rosa',
      validFrom: zonedInstant(end, '10:00', LISBON).toISOString(),
      validUntil: zonedInstant(end, '13:00', LISBON).toISOString(),
    });
    expect(entryOf(await desiredSet(t, lock), cleaner.code)).toMatchObject({
      validFrom: cleaner.validFrom,
      validUntil: cleaner.validUntil,
    });
    // A late check-out moves the cleaner too, at once.
    await act(listingId, id, { action: 'change', startDate: start, endDate: end, checkOutTime: '12:00' });
    cleaner = (await stayOf(listingId, id)).access.find((a) => a.holder === 'access_list' && !a.removed)!;
    expect(entryOf(await desiredSet(t, lock), cleaner.code)!.validFrom).toBe(
      zonedInstant(end, '12:00', LISBON).toISOString(),
    );
    expect(entryOf(await desiredSet(t, lock), cleaner.code)!.validUntil).toBe(
      zonedInstant(end, '15:00', LISBON).toISOString(),
    );
  });

  it('refuses approving a stay a full lock cannot hold, naming the lock, after freeing finished stays first', async () => {
    // A keypad code lock holds 30 entries; 28 company codes leave room for one stay (code + QR).
    const lock = (await addLock(t, owner, { name: 'Small keypad', model: 'generic-codelock' })).id;
    const listingId = await addListing(t, owner, [lock]);
    for (let i = 0; i < 28; i++) {
      const response = await t.request({
        method: 'POST',
        url: '/api3/portal/code/company',
        token: owner.token,
        payload: { name: `Crew ${i}`, code: String(7_000_000 + i) },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    const start = dayIn(LISBON, 100);
    const first = await approved(listingId, start, addDaysToDate(start, 2));
    expect((await desiredSet(t, lock))!.entries).toHaveLength(30);

    const second = await requested(listingId, addDaysToDate(start, 4), addDaysToDate(start, 6));
    const preview = await stayOf(listingId, second);
    expect(preview.capacity).toEqual([
      expect.objectContaining({ name: 'Small keypad', capacity: 30, used: 30, withStay: 32, fits: false }),
    ]);
    const refused = await act(listingId, second, { action: 'approve' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(
      /^Small keypad is full: its model holds 30 credentials and with this stay it would hold 32/,
    );
    expect((await stayOf(listingId, second)).state).toBe('requested');
    expect((await desiredSet(t, lock))!.entries).toHaveLength(30);

    // Once the first stay is over, its slots are freed before the next one is counted.
    // (Time passes: the first stay is moved into the past.)
    await t.app.db
      .updateTable('stays')
      .set({ start_date: dayIn(LISBON, -3), end_date: dayIn(LISBON, -1) })
      .where('id', '=', first)
      .execute();
    await t.app.db
      .updateTable('stay_access')
      .set({ valid_until: new Date(Date.now() - 60_000).toISOString() })
      .where('stay_id', '=', first)
      .execute();
    const ok = await act(listingId, second, { action: 'approve' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await stayOf(listingId, first)).access.every((a) => a.removed)).toBe(true);
    expect((await desiredSet(t, lock))!.entries).toHaveLength(30);
  });

  it('never gives two overlapping stays on a shared entrance the same code', async () => {
    const entrance = (await addLock(t, owner, { name: 'Building entrance' })).id;
    const flats = [
      (await addLock(t, owner, { name: 'Flat 1' })).id,
      (await addLock(t, owner, { name: 'Flat 2' })).id,
    ];
    const listings = [
      await addListing(t, owner, [flats[0]!, entrance]),
      await addListing(t, owner, [flats[1]!, entrance]),
    ];
    const start = dayIn(LISBON, 120);
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const listingId = listings[i % 2]!;
      // Flat 1: nights 0–3, 3–6, 6–9; flat 2: 1–4, 4–7, 7–10: always someone in each at once.
      const stayStart = addDaysToDate(start, Math.floor(i / 2) * 3 + (i % 2));
      const id = await approved(listingId, stayStart, addDaysToDate(stayStart, 3));
      codes.push((await stayOf(listingId, id)).access.find((a) => a.holder === 'guest')!.code);
    }
    expect(new Set(codes).size).toBe(codes.length);
    const set = (await desiredSet(t, entrance))!;
    const secrets = set.entries.filter((e) => e.kind === 'code').map((e) => e.secret);
    expect(new Set(secrets).size).toBe(secrets.length);
    for (const code of codes) expect(secrets).toContain(code);
    // Each flat's own door holds only its own guests' codes.
    const flatOne = (await desiredSet(t, flats[0]!))!.entries
      .filter((e) => e.kind === 'code' && e.holderType === 'guest')
      .map((e) => e.secret);
    expect(flatOne.sort()).toEqual([codes[0], codes[2], codes[4]].sort());
  });
});

describe('a lock leaving a listing', () => {
  it("keeps the guest's code at the listing's other locks when one lock is deleted", async () => {
    const entrance = (await addLock(t, owner, { name: 'Shared entrance' })).id;
    const flat = (await addLock(t, owner, { name: 'Doomed flat door' })).id;
    const listingId = await addListing(t, owner, [flat, entrance]);
    const start = dayIn(LISBON, 140);
    const id = await approved(listingId, start, addDaysToDate(start, 2));
    const code = (await stayOf(listingId, id)).access[0]!.code;
    expect(entryOf(await desiredSet(t, entrance), code)).toBeDefined();
    const deleted = await t.request({
      method: 'DELETE',
      url: `/api3/portal/device/${flat}`,
      token: owner.token,
    });
    expect(deleted.statusCode).toBeLessThan(300);
    expect(entryOf(await desiredSet(t, entrance), code)).toBeDefined();
    const stay = await stayOf(listingId, id);
    expect(stay.access[0]!.locks.map((l) => l.name)).toEqual(['Shared entrance']);
  });
});

describe('another portal', () => {
  it("sees none of this portal's listings or requests", async () => {
    const other = await rentalPortal(t);
    const lock = (await addLock(t, owner)).id;
    const listingId = await addListing(t, owner, [lock]);
    const stayId = await requested(listingId, dayIn(LISBON, 200), dayIn(LISBON, 203));
    for (const url of [
      `/api3/listing/${listingId}`,
      `/api3/listing/${listingId}/request`,
      `/api3/device/${listingId}/request/${stayId}`,
      `/api3/listing/${listingId}/accessList`,
    ]) {
      expect((await t.request({ method: 'GET', url, token: other.token })).statusCode, url).toBe(404);
    }
    expect((await act(listingId, stayId, { action: 'approve' }, other.token)).statusCode).toBe(404);
    const list = await t.request({ method: 'GET', url: '/api3/listing', token: other.token });
    expect(list.json()).toEqual({ items: [], total: 0 });
  });
});
