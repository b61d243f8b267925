import {
  ARRIVAL_DETAILS_DAYS_AFTER_CHECK_OUT,
  zonedInstant,
  type ShareLanding,
  type Stay,
} from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addListing, addLock, dayIn, rentalPortal, requestStay, type RentalPortal } from './rental-helpers';
import { TestApp } from './test-app';

// Issue 16, defect 4: a cancelled guest's link kept working. On main, after a host cancelled a
// stay, GET device/token/{the old link} still answered 200 with the address, the arrival text and
// the Wi-Fi password (nothing ever raised guest_token_version), and a stay long over still showed
// them. Now ending a stay (cancel, decline) revokes its links in the same write (410, nothing
// shown), a past stay's link stops showing the way in ARRIVAL_DETAILS_DAYS_AFTER_CHECK_OUT days
// after check-out, and changing an approved stay's dates leaves its link working.

const LISBON = 'Europe/Lisbon';
const WIFI_PASSWORD = 'hunter2-secret';
const ARRIVAL_TEXT = 'Key safe behind the blue gate';
const ADDRESS = '12 Rua Secreta, Lisbon';

let t: TestApp;
let host: RentalPortal;
let listingId: string;
/** Each stay on nights of its own. */
let nextFrom = 30;

beforeAll(async () => {
  t = await TestApp.start({ STAY_ACCESS_CHECK_MS: '0' });
  host = await rentalPortal(t);
  const lock = await addLock(t, host, { name: 'Front door', timeZone: LISBON });
  listingId = await addListing(t, host, [lock.id], { address: ADDRESS, minNights: 1, maxNights: 10 });
  const landing = await t.request({
    method: 'POST',
    url: `/api3/device/${lock.id}/sharelock/landing`,
    token: host.token,
    payload: { text: ARRIVAL_TEXT, wifiName: 'Flat', wifiPassword: WIFI_PASSWORD, parking: 'Street' },
  });
  expect(landing.statusCode, landing.body).toBe(200);
});
afterAll(() => t.close());

function act(stayId: string, payload: object) {
  return t.request({
    method: 'POST',
    url: `/api3/device/${listingId}/request/${stayId}`,
    token: host.token,
    payload,
  });
}

async function requested(): Promise<string> {
  const from = nextFrom;
  nextFrom += 5;
  const response = await requestStay(t, listingId, {
    startDate: dayIn(LISBON, from),
    endDate: dayIn(LISBON, from + 2),
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json()._id;
}

async function approved(): Promise<Stay> {
  const response = await act(await requested(), { action: 'approve' });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const tokenOf = (landingPath: string) => decodeURIComponent(landingPath.replace(/^\/s\?t=/, ''));
const open = (token: string) =>
  t.request({ method: 'GET', url: `/api3/device/token/${encodeURIComponent(token)}` });

describe('a guest link once the stay ends', () => {
  it('stops working when the host cancels the stay: 410, no address, arrival text or Wi-Fi', async () => {
    const stay = await approved();
    const token = tokenOf(stay.landingPath!);
    const before = await open(token);
    expect(before.statusCode).toBe(200);
    expect(before.body).toContain(WIFI_PASSWORD);

    expect((await act(stay._id, { action: 'cancel', reason: 'Pipe burst' })).statusCode).toBe(200);
    const after = await open(token);
    expect(after.statusCode).toBe(410);
    expect(after.json().error).toMatchObject({ code: 'link_ended' });
    expect(after.json().error.message).toMatch(/no longer works/);
    for (const secret of [WIFI_PASSWORD, ARRIVAL_TEXT, ADDRESS]) expect(after.body).not.toContain(secret);
    // Keeping the stay in an account through the old link is refused the same way.
    const activation = await t.request({
      method: 'POST',
      url: `/api3/device/${encodeURIComponent(token)}/sharelock/add`,
      payload: t.seal({ name: 'Ana', password: 'a sturdy passphrase' }),
    });
    expect(activation.statusCode).toBe(410);
    // Its review link (signed with the same version) opens nothing either.
    const review = t.app.rental.deps.tokens.sign('review', stay._id, 1);
    expect((await t.request({ method: 'GET', url: `/api3/review/${review}` })).statusCode).toBe(404);
    const row = await t.app.db
      .selectFrom('stays')
      .select('guest_token_version')
      .where('id', '=', stay._id)
      .executeTakeFirstOrThrow();
    expect(Number(row.guest_token_version)).toBe(2);
  });

  it('stops working when a request is declined', async () => {
    const stayId = await requested();
    const token = t.app.rental.deps.tokens.sign('stay', stayId, 1);
    expect((await open(token)).statusCode).toBe(200);
    expect((await act(stayId, { action: 'decline', reason: 'Closed for works' })).statusCode).toBe(200);
    const after = await open(token);
    expect(after.statusCode).toBe(410);
    expect(after.body).not.toContain(WIFI_PASSWORD);
  });

  it('keeps working when an approved stay’s dates change', async () => {
    const stay = await approved();
    const changed = await act(stay._id, {
      action: 'change',
      startDate: stay.startDate,
      endDate: dayIn(LISBON, nextFrom - 5 + 3),
      checkOutTime: '12:30',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().landingPath).toBe(stay.landingPath);
    const landing = await open(tokenOf(stay.landingPath!));
    expect(landing.statusCode).toBe(200);
    expect(landing.json<ShareLanding>().stay).toMatchObject({ checkOutTime: '12:30', arrivalShown: true });
    expect(landing.body).toContain(WIFI_PASSWORD);
  });

  it(`stops showing the way in ${ARRIVAL_DETAILS_DAYS_AFTER_CHECK_OUT} days after check-out, keeping the stay and the address`, async () => {
    const stay = await approved();
    const token = tokenOf(stay.landingPath!);
    const moveTo = (startDate: string, endDate: string) =>
      t.app.db
        .updateTable('stays')
        .set({ start_date: startDate, end_date: endDate })
        .where('id', '=', stay._id)
        .execute();

    // Checked out yesterday: within the days the link keeps the arrival details.
    await moveTo(dayIn(LISBON, -3), dayIn(LISBON, -1));
    const recent = await open(token);
    expect(recent.statusCode).toBe(200);
    expect(recent.json<ShareLanding>().stay).toMatchObject({
      arrivalShown: true,
      arrivalUntil: new Date(
        zonedInstant(dayIn(LISBON, -1), '11:00', LISBON).getTime() +
          ARRIVAL_DETAILS_DAYS_AFTER_CHECK_OUT * 86_400_000,
      ).toISOString(),
    });
    expect(recent.body).toContain(WIFI_PASSWORD);

    // Checked out well before that: the stay and the address stay, the way in does not.
    await moveTo(dayIn(LISBON, -12), dayIn(LISBON, -10));
    const old = await open(token);
    expect(old.statusCode).toBe(200);
    const landing = old.json<ShareLanding>();
    expect(landing.stay).toMatchObject({ arrivalShown: false, code: null, qr: null });
    expect(landing.listing.address).toBe(ADDRESS);
    expect(landing.locks).toEqual([
      { name: 'Front door', text: '', wifiName: '', wifiPassword: '', parking: '', images: [] },
    ]);
    for (const secret of [WIFI_PASSWORD, ARRIVAL_TEXT, 'Street']) expect(old.body).not.toContain(secret);
  });

  it('still answers 404 to a forged link, and the listing’s own link is untouched', async () => {
    const forged = 'S1.00000000-0000-4000-8000-000000000000.1.AAAAAAAAAAAAAAAAAAAAAA';
    expect((await open(forged)).statusCode).toBe(404);
    const share = await t.request({
      method: 'GET',
      url: `/api3/device/${listingId}/sharelock/token`,
      token: host.token,
    });
    const landing = await open(share.json().token);
    expect(landing.statusCode).toBe(200);
    expect(landing.json<ShareLanding>()).toMatchObject({ kind: 'listing', stay: null });
  });
});
