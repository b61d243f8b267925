import crypto from 'node:crypto';
import {
  addDaysToDate,
  evaluateAccess,
  evaluateQrScan,
  verifyQrToken,
  zonedInstant,
  type Listing,
} from '@latchkey/shared';
import { SimulatedLock } from '@latchkey/locksim';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addListing,
  addLock,
  dayIn,
  desiredSet,
  png,
  rentalPortal,
  requestStay,
  stayAccountLinkToken,
  type RentalPortal,
} from './rental-helpers';
import { TestApp } from './test-app';

const LISBON = 'Europe/Lisbon';

let t: TestApp;
let owner: RentalPortal;
let lock: { id: string; secret: string };

beforeAll(async () => {
  t = await TestApp.start({ STAY_ACCESS_CHECK_MS: '0' });
  owner = await rentalPortal(t);
  lock = await addLock(t, owner, { name: 'Front door' });
});
afterAll(() => t.close());

const call = (
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  token = owner.token,
) =>
  t.request({
    method,
    url: `/api3/${url}`,
    token,
    ...(payload !== undefined && { payload: payload as object }),
  });

function upload(url: string, bytes: Buffer, contentType = 'image/png', token = owner.token) {
  return t.request({
    method: 'POST',
    url: `/api3/${url}`,
    token,
    payload: bytes,
    headers: { 'content-type': contentType },
  });
}

const errorPaths = (response: { json: () => { error: { details?: { path: string }[] } } }) =>
  (response.json().error.details ?? []).map((d) => d.path);

describe('listings', () => {
  it('creates, reads, lists, saves and deletes a listing', async () => {
    const created = await call('POST', 'listing/new', {
      title: 'Loft by the river',
      description: 'Two rooms\nand a balcony',
      deviceIds: [lock.id],
      checkInTime: '16:00',
      checkOutTime: '10:00',
      minNights: 2,
    });
    expect(created.statusCode, created.body).toBe(201);
    const listing: Listing = created.json();
    expect(listing).toMatchObject({
      title: 'Loft by the river',
      timeZone: LISBON,
      locks: [{ _id: lock.id, name: 'Front door' }],
      published: false,
      autoAccept: false,
      initialTime: 0,
      startTime: null,
    });
    expect((await call('GET', `listing/${listing._id}`)).json()).toEqual(listing);
    const saved = await call('POST', `listing/${listing._id}`, {
      title: 'Loft',
      deviceIds: [lock.id],
      published: true,
    });
    expect(saved.json()).toMatchObject({ title: 'Loft', published: true, checkInTime: '15:00' });
    const page = await call('GET', 'listing?search=loft&filterBy=published&filterValue=true');
    expect(page.json().items.map((l: { _id: string }) => l._id)).toContain(listing._id);
    expect((await call('GET', 'listing?filterBy=published&filterValue=maybe')).statusCode).toBe(400);
    expect((await call('DELETE', `listing/${listing._id}`)).statusCode).toBe(204);
    expect((await call('GET', `listing/${listing._id}`)).statusCode).toBe(404);
    expect((await call('DELETE', `listing/${listing._id}`)).statusCode).toBe(404);
  });

  it('refuses bad listings with a 400 on the field, unknown ids with a 404', async () => {
    const base = { title: 'Room', deviceIds: [lock.id] };
    const bad: [object, string][] = [
      [{ ...base, title: '' }, 'body.title'],
      [{ ...base, deviceIds: [] }, 'body.deviceIds'],
      [{ ...base, checkInTime: '25:00' }, 'body.checkInTime'],
      [{ ...base, minNights: 5, maxNights: 2 }, 'body.maxNights'],
      [{ ...base, startTime: '18:00', checkInTime: '15:00' }, 'body.startTime'],
      [{ ...base, deviceIds: [lock.id, lock.id] }, 'body.deviceIds'],
      [{ ...base, initialTime: -5 }, 'body.initialTime'],
      // Prices in whole minor units, within bounds, in a currency the portal offers.
      [{ ...base, nightlyPrice: 0 }, 'body.nightlyPrice'],
      [{ ...base, nightlyPrice: 120.5 }, 'body.nightlyPrice'],
      [{ ...base, nightlyPrice: 10_000_001 }, 'body.nightlyPrice'],
      [{ ...base, nightlyPrice: '12000' }, 'body.nightlyPrice'],
      [{ ...base, nightlyPrice: 12_000, currency: 'XBT' }, 'body.currency'],
    ];
    for (const [body, path] of bad) {
      const response = await call('POST', 'listing/new', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorPaths(response)).toContain(path);
    }
    const berlin = await addLock(t, owner, { name: 'Berlin door', timeZone: 'Europe/Berlin' });
    const zones = await call('POST', 'listing/new', { ...base, deviceIds: [lock.id, berlin.id] });
    expect(zones.statusCode).toBe(400);
    expect(zones.json().error.message).toMatch(/share one time zone/);
    expect(
      (await call('POST', 'listing/new', { ...base, deviceIds: [crypto.randomUUID()] })).statusCode,
    ).toBe(404);
    expect((await call('POST', 'listing/new', { ...base, categoryId: crypto.randomUUID() })).statusCode).toBe(
      404,
    );
    expect((await call('GET', `listing/${crypto.randomUUID()}`)).statusCode).toBe(404);
    expect((await call('GET', 'listing/not%20an%20id')).statusCode).toBe(400);
  });

  it('refuses deleting a listing with stays that have not ended', async () => {
    const listingId = await addListing(t, owner, [lock.id]);
    const request = await requestStay(t, listingId, {
      startDate: dayIn(LISBON, 5),
      endDate: dayIn(LISBON, 7),
    });
    await call('POST', `device/${listingId}/request/${request.json()._id}`, { action: 'approve' });
    const refused = await call('DELETE', `listing/${listingId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toMatch(/1 stay that has not ended; cancel it first/);
  });

  it('keeps categories, named once per portal', async () => {
    const created = await call('POST', 'listingCategory/new', { name: 'Studio' });
    expect(created.statusCode).toBe(201);
    expect((await call('POST', 'listingCategory/new', { name: 'studio' })).statusCode).toBe(409);
    expect((await call('POST', 'listingCategory/new', { name: '' })).statusCode).toBe(400);
    const id = created.json()._id;
    const listingId = await addListing(t, owner, [lock.id], { categoryId: id });
    expect((await call('GET', 'listingCategory')).json()).toContainEqual({
      _id: id,
      name: 'Studio',
      listings: 1,
    });
    expect((await call('POST', `listingCategory/${id}`, { name: 'Studios' })).json()).toMatchObject({
      name: 'Studios',
    });
    expect((await call('GET', `listing/${listingId}`)).json().category).toEqual({ _id: id, name: 'Studios' });
    expect((await call('DELETE', `listingCategory/${id}`)).statusCode).toBe(204);
    expect((await call('GET', `listing/${listingId}`)).json().category).toBeNull();
    expect((await call('DELETE', `listingCategory/${id}`)).statusCode).toBe(404);
  });

  it('keeps an access list and the people who look after a listing', async () => {
    const listingId = await addListing(t, owner, [lock.id]);
    expect(
      (
        await call('POST', `listing/${listingId}/accessList/new`, {
          name: 'Rosa',
          startOffset: 60,
          endOffset: 30,
        })
      ).statusCode,
    ).toBe(400);
    const entry = await call('POST', `listing/${listingId}/accessList/new`, {
      name: 'Rosa',
      email: 'rosa@example.com',
    });
    expect(entry.json()).toMatchObject({
      name: 'Rosa',
      anchor: 'check_out',
      startOffset: 0,
      endOffset: 180,
      email: 'rosa@example.com',
    });
    const entryId = entry.json()._id;
    expect(
      (
        await call('POST', `listing/${listingId}/accessList/${entryId}`, { name: 'Rosa M.', endOffset: 240 })
      ).json(),
    ).toMatchObject({
      name: 'Rosa M.',
      endOffset: 240,
    });
    expect((await call('GET', `listing/${listingId}/accessList`)).json()).toHaveLength(1);
    expect((await call('DELETE', `listing/${listingId}/accessList/${entryId}`)).statusCode).toBe(204);
    expect((await call('DELETE', `listing/${listingId}/accessList/${entryId}`)).statusCode).toBe(404);

    const cohost = await t.signUp({ firstName: 'Cora' });
    await t.addMember(owner.portalId, cohost.userId, 'user');
    expect((await call('PUT', `listing/${listingId}/user/${crypto.randomUUID()}`)).statusCode).toBe(404);
    const users = await call('PUT', `listing/${listingId}/user/${cohost.userId}`);
    expect(users.json()).toEqual([{ _id: cohost.userId, name: 'Cora', email: cohost.email }]);
    // The people who look after it get its requests' mail (instead of the admins).
    await requestStay(t, listingId, { startDate: dayIn(LISBON, 30), endDate: dayIn(LISBON, 32) });
    const mail = await t.app.db
      .selectFrom('mail_outbox')
      .select('template')
      .where('to_address', '=', cohost.email)
      .execute();
    expect(mail.map((m) => m.template)).toContain('stay_request_host');
    expect((await call('DELETE', `listing/${listingId}/user/${cohost.userId}`)).statusCode).toBe(204);
    expect((await call('GET', `listing/${listingId}/users`)).json()).toEqual([]);
  });
});

describe('images', () => {
  it('takes an image by its bytes, stores it as WebP without its metadata, and serves it publicly', async () => {
    const listingId = await addListing(t, owner, [lock.id]);
    // A JPEG carrying EXIF (a camera and a GPS position), as phones write them.
    const photo = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: '#888' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'PhoneCam', Model: 'X' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '38/1 42/1 0/1' },
      })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const added = await upload(`listing/${listingId}/image?alt=Living%20room`, photo, 'image/jpeg');
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ alt: 'Living room', position: 0, width: 1600, height: 1067 });
    const served = await t.request({ method: 'GET', url: added.json().url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=86400');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 1600 });
    expect(meta.exif).toBeUndefined();
    const thumb = await t.request({ method: 'GET', url: added.json().thumbUrl });
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(480);

    const second = await upload(`listing/${listingId}/image`, await png());
    expect(second.json()).toMatchObject({ position: 1, width: 64 });
    const moved = await call('POST', `listing/${listingId}/image/${second.json()._id}`, {
      position: 0,
      alt: 'Small',
    });
    expect(moved.json()).toMatchObject({ position: 0, alt: 'Small' });
    expect(
      (await call('GET', `listing/${listingId}`)).json().images.map((i: { alt: string }) => i.alt),
    ).toEqual(['Small', 'Living room']);

    expect((await call('DELETE', `listing/${listingId}/image/${added.json()._id}`)).statusCode).toBe(204);
    expect((await t.request({ method: 'GET', url: added.json().url })).statusCode).toBe(404);
    expect((await call('GET', `listing/${listingId}`)).json().images).toHaveLength(1);
  });

  it('refuses what is not an image, whatever it claims to be', async () => {
    const listingId = await addListing(t, owner, [lock.id]);
    const text = await upload(
      `listing/${listingId}/image`,
      Buffer.from('<svg onload="alert(1)"></svg>'),
      'image/png',
    );
    expect(text.statusCode).toBe(415);
    const truncated = await upload(`listing/${listingId}/image`, (await png()).subarray(0, 40));
    expect(truncated.statusCode).toBe(415);
    expect((await call('POST', `listing/${listingId}/image`, { not: 'bytes' })).statusCode).toBe(415);
    expect((await upload(`listing/${listingId}/image`, Buffer.alloc(0))).statusCode).toBe(400);
    expect((await upload(`listing/${crypto.randomUUID()}/image`, await png())).statusCode).toBe(404);
    const other = await rentalPortal(t);
    expect(
      (await upload(`listing/${listingId}/image`, await png(), 'image/png', other.token)).statusCode,
    ).toBe(404);
    expect((await call('GET', `listing/${listingId}`)).json().images).toEqual([]);
  });
});

describe('share-lock calls', () => {
  it('turns sharing on and off, with initialTime and startTime, reaching upcoming stays at once', async () => {
    const listingId = await addListing(t, owner, [lock.id], { checkInTime: '15:00' });
    const start = dayIn(LISBON, 8);
    const stayId = (
      await requestStay(t, listingId, { startDate: start, endDate: addDaysToDate(start, 2) })
    ).json()._id;
    await call('POST', `device/${listingId}/request/${stayId}`, { action: 'approve' });
    const settings = await call('POST', `device/${listingId}/sharelock`, {
      initialTime: 120,
      startTime: '14:00',
    });
    expect(settings.json()).toEqual({
      listingId,
      enabled: true,
      initialTime: 120,
      startTime: '14:00',
      autoAccept: false,
      requestPath: `/s/r/${listingId}`,
    });
    const stay = (await call('GET', `device/${listingId}/request/${stayId}`)).json();
    // Check-in 15:00 less 120 minutes is 13:00, but never before 14:00.
    expect(stay.accessFrom).toBe(zonedInstant(start, '14:00', LISBON).toISOString());
    expect(stay.access[0].validFrom).toBe(stay.accessFrom);
    expect((await call('POST', `device/${listingId}/sharelock`, { startTime: '16:00' })).statusCode).toBe(
      400,
    );
    expect((await call('POST', `device/${listingId}/sharelock`, {})).statusCode).toBe(400);
    expect((await call('POST', `device/${listingId}/sharelock`, { enabled: false })).json().enabled).toBe(
      false,
    );
    expect((await t.request({ method: 'GET', url: `/api3/listing/${listingId}/public` })).statusCode).toBe(
      404,
    );
    expect(
      (await call('POST', `device/${crypto.randomUUID()}/sharelock`, { enabled: true })).statusCode,
    ).toBe(404);
  });

  it("keeps a lock's arrival instructions", async () => {
    expect((await call('GET', `portal/device/${lock.id}/landing`)).json()).toMatchObject({
      text: '',
      updatedAt: null,
    });
    const saved = await call('POST', `device/${lock.id}/sharelock/landing`, {
      text: 'Ring 3B',
      wifiName: 'Flat',
      wifiPassword: 'sunny-days',
      parking: 'Street',
    });
    expect(saved.json()).toMatchObject({ text: 'Ring 3B', wifiPassword: 'sunny-days' });
    expect(
      (await call('POST', `device/${lock.id}/sharelock/landing`, { text: 'x'.repeat(4001) })).statusCode,
    ).toBe(400);
    const image = await upload(`device/${lock.id}/sharelock/landing/image?alt=Door`, await png());
    expect(image.statusCode).toBe(201);
    expect((await call('GET', `portal/device/${lock.id}/landing`)).json().images).toHaveLength(1);
    expect((await call('GET', `portal/device/${crypto.randomUUID()}/landing`)).statusCode).toBe(404);
    const audit = await call('GET', 'portal/audit?filterBy=action&filterValue=device.landing.update');
    expect(audit.body).not.toContain('sunny-days');
  });

  it('links to a landing page that shows no guest, rotates, and refuses forged links', async () => {
    const listingId = await addListing(t, owner, [lock.id]);
    const stayId = (
      await requestStay(t, listingId, {
        name: 'Private Person',
        startDate: dayIn(LISBON, 40),
        endDate: dayIn(LISBON, 42),
      })
    ).json()._id;
    await call('POST', `device/${listingId}/request/${stayId}`, { action: 'approve' });
    const first = await call('GET', `device/${listingId}/sharelock/token`);
    expect(first.json()).toMatchObject({
      landingPath: expect.stringMatching(/^\/s\?t=L1\./),
      rotatedAt: null,
    });
    const landing = await t.request({ method: 'GET', url: `/api3/device/token/${first.json().token}` });
    expect(landing.statusCode).toBe(200);
    expect(landing.json()).toMatchObject({
      kind: 'listing',
      stay: null,
      listing: { address: '12 Rua Secreta, Lisbon' },
    });
    expect(landing.json().locks[0]).toMatchObject({ name: 'Front door', text: 'Ring 3B', wifiName: 'Flat' });
    const stay = (await call('GET', `device/${listingId}/request/${stayId}`)).json();
    expect(landing.body).not.toContain('Private Person');
    expect(landing.body).not.toContain(stay.access[0].code);
    expect(landing.body).not.toContain(stay.guestEmail);

    const rotated = await call('GET', `device/${listingId}/sharelock/token?rotate=true`);
    expect(rotated.json().token).not.toBe(first.json().token);
    expect(
      (await t.request({ method: 'GET', url: `/api3/device/token/${first.json().token}` })).statusCode,
    ).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: `/api3/device/token/${rotated.json().token}` })).statusCode,
    ).toBe(200);
    const forged = rotated.json().token.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'));
    expect((await t.request({ method: 'GET', url: `/api3/device/token/${forged}` })).statusCode).toBe(404);
    expect(
      (await t.request({ method: 'GET', url: `/api3/device/token/${encodeURIComponent('<script>')}` }))
        .statusCode,
    ).toBe(400);
  });

  it('shows a guest their own stay, their code and a QR code the lock takes, once the lock has confirmed', async () => {
    const own = await addLock(t, owner, { name: 'Guest door' });
    const listingId = await addListing(t, owner, [own.id]);
    const start = dayIn(LISBON, 3);
    const stayId = (
      await requestStay(t, listingId, {
        name: 'Lena',
        email: 'lena@example.com',
        startDate: start,
        endDate: addDaysToDate(start, 2),
      })
    ).json()._id;
    const approved = (
      await call('POST', `device/${listingId}/request/${stayId}`, { action: 'approve' })
    ).json();
    const path = approved.landingPath as string;
    const token = decodeURIComponent(path.slice('/s?t='.length));
    const waiting = (await t.request({ method: 'GET', url: `/api3/device/token/${token}` })).json();
    expect(waiting).toMatchObject({
      kind: 'stay',
      stay: { guestName: 'Lena', accessState: 'waiting', code: null, qr: null },
    });

    const simulated = new SimulatedLock({
      url: t.app.deviceLink.transport.url,
      deviceId: own.id,
      secret: own.secret,
      heartbeatSeconds: 0,
    });
    await simulated.start();
    try {
      await expect
        .poll(
          async () =>
            (await call('GET', `device/${listingId}/request/${stayId}`)).json().access[0].locks[0].state,
        )
        .toBe('confirmed');
      await t.app.rental.monitor.sweep();
      const ready = (await t.request({ method: 'GET', url: `/api3/device/token/${token}` })).json();
      expect(ready.stay).toMatchObject({ accessState: 'ready', code: approved.access[0].code });
      expect(ready.stay.qr.qrCode).toMatch(/^data:image\/png;base64,/);
      // The QR code opens the lock inside the stay, as the guest (not before it starts).
      const set = (await desiredSet(t, own.id))!;
      const check = verifyQrToken(ready.stay.qr.token, set.qrKey, new Date());
      expect(check.ok).toBe(true);
      const scanned = evaluateQrScan(set, ready.stay.qr.token, new Date()).decision;
      expect(scanned).toMatchObject({ granted: false, reason: 'not_yet_valid' });
      const u = check.ok ? check.claims.u : '';
      const inside = new Date(Date.parse(approved.accessFrom) + 60_000);
      expect(evaluateAccess(set, { kind: 'remote', secret: u }, inside)).toMatchObject({ granted: true });
    } finally {
      await simulated.stop();
    }
  });

  it('keeps a stay in a new or an existing account', async () => {
    const listingId = await addListing(t, owner, [lock.id]);
    const email = `keeper-${crypto.randomUUID().slice(0, 6)}@example.com`;
    const stayId = (
      await requestStay(t, listingId, {
        name: 'Kim',
        email,
        startDate: dayIn(LISBON, 50),
        endDate: dayIn(LISBON, 52),
      })
    ).json()._id;
    const requestedToken = t.app.rental.deps.tokens.sign('stay', stayId, 1);
    const add = (token: string, body: object, ip = '10.3.3.3') =>
      t.request({
        method: 'POST',
        url: `/api3/device/${token}/sharelock/add`,
        payload: t.seal(body),
        remoteAddress: ip,
      });
    expect((await add(requestedToken, { name: 'Kim', password: 'a sturdy passphrase' })).statusCode).toBe(
      409,
    );
    const approved = (
      await call('POST', `device/${listingId}/request/${stayId}`, { action: 'approve' })
    ).json();
    const token = decodeURIComponent((approved.landingPath as string).slice('/s?t='.length));
    expect(
      (
        await t.request({
          method: 'POST',
          url: `/api3/device/${token}/sharelock/add`,
          payload: { password: 'x' },
        })
      ).statusCode,
    ).toBe(400);
    // No account at the address: the link hosts see makes none; the address's owner gets a link.
    const asked = await add(token, { name: 'Kim', password: 'a sturdy passphrase' });
    expect(asked.statusCode, asked.body).toBe(202);
    expect(asked.json().sentTo).toBe(`k•••@example.com`);
    expect(asked.json()).not.toHaveProperty('token');
    const created = await t.request({
      method: 'POST',
      url: '/api3/sharelock/account',
      payload: t.seal({
        token: await stayAccountLinkToken(t, email),
        name: 'Kim',
        password: 'a sturdy passphrase',
      }),
      remoteAddress: '10.3.3.3',
    });
    expect(created.statusCode, created.body).toBe(200);
    const session = await t.request({ method: 'GET', url: '/api3/auth', token: created.json().token });
    expect(session.json().user).toMatchObject({ email, firstName: 'Kim', emailVerified: true });
    expect(
      (await t.request({ method: 'GET', url: `/api3/device/token/${token}` })).json().stay.accountLinked,
    ).toBe(true);
    // The account exists now: only its password keeps the stay in it.
    expect((await add(token, { password: 'not the password' })).statusCode).toBe(401);
    expect((await add(token, { password: 'a sturdy passphrase' })).statusCode).toBe(200);
    expect((await add(`${token}x`, { password: 'a sturdy passphrase' })).statusCode).toBe(404);
  });
});
