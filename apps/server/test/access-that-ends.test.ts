import crypto from 'node:crypto';
import { localWallTime, type ReviewInvitation } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addListing,
  addLock,
  dayIn,
  png,
  rentalPortal,
  requestStay,
  type RentalPortal,
} from './rental-helpers';
import { TestApp } from './test-app';

// Issue 16, defect 10: three smaller holes, each where access should have ended and did not.
// - Reviews: on main a stay could be reviewed, and the review published, on its departure day
//   before its check-out time (review-window.ts compared dates); now from the check-out instant.
// - Resellers: on main a reseller that invited itself (or anyone) as an admin while acting in its
//   customer's portal kept that access after the customer stopped it acting or unlinked it; now
//   those memberships end in the same transaction.
// - Images: on main a deleted listing's pictures (and its locks' arrival pictures) were still
//   served to anyone holding their address; now 404.

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({
    STAY_ACCESS_CHECK_MS: '0',
    REVIEW_MAIL_CHECK_MS: '0',
    LOGIN_LIMIT_PER_IP: '1000',
    SIGNUP_LIMIT_PER_IP: '1000',
  });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: object, portal?: string) =>
  t.request({ method, url: `/api3/${url}`, token, portal, ...(payload && { payload }) });

describe('a stay is reviewed from its check-out instant, not its departure date', () => {
  // A fixed zone where the clock now reads about 08:00, so that "today 20:00" is hours ahead and
  // "today 04:00" hours behind whenever the test runs (Etc/GMT-N is N hours ahead of UTC).
  const aheadOfUtc = ((8 - new Date().getUTCHours() + 36) % 24) - 12;
  const zone = aheadOfUtc === 0 ? 'UTC' : `Etc/GMT${aheadOfUtc > 0 ? '-' : '+'}${Math.abs(aheadOfUtc)}`;
  let host: RentalPortal;
  let listingId: string;

  beforeAll(async () => {
    host = await rentalPortal(t);
    const lock = await addLock(t, host, { timeZone: zone });
    listingId = await addListing(t, host, [lock.id], { checkOutTime: '20:00' });
  });

  it('keeps reviews closed on the departure day until check-out, then takes one', async () => {
    const hour = Math.floor(localWallTime(new Date(), zone).minutes / 60);
    expect(hour >= 6 && hour <= 10, `${zone} reads ${hour} h`).toBe(true);
    const requested = await requestStay(t, listingId, {
      startDate: dayIn(zone, 5),
      endDate: dayIn(zone, 7),
    });
    expect(requested.statusCode, requested.body).toBe(201);
    const stayId: string = requested.json()._id;
    const approved = await call('POST', `device/${listingId}/request/${stayId}`, host.token, {
      action: 'approve',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    // The stay leaves today at 20:00 (the past cannot be requested: its dates are moved back).
    await t.app.db
      .updateTable('stays')
      .set({ start_date: dayIn(zone, -2), end_date: dayIn(zone, 0) })
      .where('id', '=', stayId)
      .execute();
    const token = t.app.rental.deps.tokens.sign('review', stayId, 1);
    const review = { rating: 5, text: 'Lovely' };

    const before = await call('GET', `review/${token}`);
    expect(before.statusCode).toBe(200);
    expect(before.json<ReviewInvitation>()).toMatchObject({
      open: false,
      reason: 'Reviews open once the stay is over',
    });
    const early = await call('POST', `review/${token}`, undefined, review);
    expect(early.statusCode).toBe(409);
    expect(await t.app.db.selectFrom('reviews').select('id').where('stay_id', '=', stayId).execute()).toEqual(
      [],
    );

    // The guest's own check-out time decides: an early check-out (04:00) has passed.
    await t.app.db.updateTable('stays').set({ check_out_time: '04:00' }).where('id', '=', stayId).execute();
    expect((await call('GET', `review/${token}`)).json<ReviewInvitation>()).toMatchObject({ open: true });
    expect((await call('POST', `review/${token}`, undefined, review)).statusCode).toBe(201);
  });
});

describe('memberships a reseller added while acting end with its leave to act', () => {
  /** A portal owner, linked (acting allowed) to a fresh reseller. */
  async function linkedPair() {
    const owner = await t.signUp();
    const reseller = await t.signUp();
    const created = await call('POST', 'reseller/new', reseller.token, {
      companyName: 'Keystone',
      country: 'DE',
    });
    expect(created.statusCode, created.body).toBe(201);
    const linked = await call('POST', 'portal/reseller', owner.token, {
      code: created.json().linkCode,
      allowActing: true,
    });
    expect(linked.statusCode, linked.body).toBe(200);
    return { owner, reseller, resellerId: created.json()._id as string };
  }

  const madeBy = (portalId: string) =>
    t.app.db
      .selectFrom('memberships')
      .select(['user_id', 'acting_reseller_id'])
      .where('portal_id', '=', portalId)
      .execute();

  /** The reseller, acting, adds itself and a helper of its own as admins; the owner adds someone. */
  async function entrench(pair: Awaited<ReturnType<typeof linkedPair>>) {
    const portal = pair.owner.portalId;
    const self = await t.addPerson(pair.reseller.token, {
      email: pair.reseller.email,
      role: 'admin',
      portal,
    });
    const helperEmail = `helper-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const helper = await t.addPerson(pair.reseller.token, { email: helperEmail, role: 'admin', portal });
    const staffEmail = `staff-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const staff = await t.addPerson(pair.owner.token, { email: staffEmail, role: 'admin' });
    const rows = new Map((await madeBy(portal)).map((r) => [r.user_id, r.acting_reseller_id]));
    expect(rows.get(self.userId)).toBe(pair.resellerId);
    expect(rows.get(helper.userId)).toBe(pair.resellerId);
    expect(rows.get(staff.userId)).toBeNull();
    expect(rows.get(pair.owner.userId)).toBeNull();
    // As members they act there through their memberships now, not through the reseller's leave.
    expect((await call('GET', 'portal/devices', pair.reseller.token, undefined, portal)).statusCode).toBe(
      200,
    );
    expect((await call('GET', 'portal/devices', helper.token!, undefined, portal)).statusCode).toBe(200);
    return { self, helper: { ...helper, token: helper.token! }, staff: { ...staff, token: staff.token! } };
  }

  it('ends them when the customer unlinks the reseller, and keeps the portal’s own people', async () => {
    const pair = await linkedPair();
    const portal = pair.owner.portalId;
    const { self, helper, staff } = await entrench(pair);

    expect((await call('DELETE', 'portal/reseller', pair.owner.token)).statusCode).toBe(204);
    for (const token of [pair.reseller.token, helper.token]) {
      const denied = await call('GET', 'portal/devices', token, undefined, portal);
      expect(denied.statusCode).toBe(403);
    }
    expect((await call('GET', 'portal/devices', staff.token, undefined, portal)).statusCode).toBe(200);
    const left = (await madeBy(portal)).map((r) => r.user_id).sort();
    expect(left).toEqual([pair.owner.userId, staff.userId].sort());
    const removed = await t.app.db
      .selectFrom('audit_log')
      .select('entity_id')
      .where('portal_id', '=', portal)
      .where('action', '=', 'member.remove')
      .execute();
    expect(removed.map((r) => r.entity_id).sort()).toEqual([self.userId, helper.userId].sort());
  });

  it('ends them when the customer stops the reseller acting; the link itself stays', async () => {
    const pair = await linkedPair();
    const portal = pair.owner.portalId;
    const { helper, staff } = await entrench(pair);
    // Only the owner decides: the reseller's own attempt changes nothing.
    expect(
      (await call('POST', 'portal/reseller/acting', pair.reseller.token, { allowActing: false }, portal))
        .statusCode,
    ).toBe(403);
    expect((await madeBy(portal)).length).toBe(4);

    const off = await call('POST', 'portal/reseller/acting', pair.owner.token, { allowActing: false });
    expect(off.json()).toMatchObject({ allowActing: false });
    expect((await call('GET', 'portal/devices', pair.reseller.token, undefined, portal)).statusCode).toBe(
      403,
    );
    expect((await call('GET', 'portal/devices', helper.token, undefined, portal)).statusCode).toBe(403);
    expect((await call('GET', 'portal/devices', staff.token, undefined, portal)).statusCode).toBe(200);
    expect((await madeBy(portal)).length).toBe(2);
    expect((await call('GET', 'reseller', pair.reseller.token)).json().customers).toHaveLength(1);
  });
});

describe('a deleted listing’s images', () => {
  let host: RentalPortal;
  beforeAll(async () => {
    host = await rentalPortal(t);
  });

  const upload = async (url: string) => {
    const response = await t.request({
      method: 'POST',
      url: `/api3/${url}`,
      token: host.token,
      payload: await png(),
      headers: { 'content-type': 'image/png' },
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { url: string; thumbUrl: string };
  };
  const status = async (url: string) => (await t.request({ method: 'GET', url })).statusCode;

  it('are no longer served, nor its locks’ arrival pictures; other locks’ pictures are', async () => {
    const door = await addLock(t, host, { name: 'Door' });
    const shared = await addLock(t, host, { name: 'Shared gate' });
    const loose = await addLock(t, host, { name: 'Not listed yet' });
    const gone = await addListing(t, host, [door.id, shared.id], { title: 'To be deleted' });
    await addListing(t, host, [shared.id], { title: 'Still offered' });
    const picture = await upload(`listing/${gone}/image?alt=Room`);
    const doorPicture = await upload(`device/${door.id}/sharelock/landing/image?alt=Door`);
    const gatePicture = await upload(`device/${shared.id}/sharelock/landing/image?alt=Gate`);
    const loosePicture = await upload(`device/${loose.id}/sharelock/landing/image?alt=Loose`);
    for (const image of [picture, doorPicture, gatePicture, loosePicture]) {
      expect(await status(image.url)).toBe(200);
    }

    expect((await call('DELETE', `listing/${gone}`, host.token)).statusCode).toBe(204);
    for (const url of [picture.url, picture.thumbUrl, doorPicture.url, doorPicture.thumbUrl]) {
      expect(await status(url), url).toBe(404);
    }
    // A lock on another listing still shows its way in there; a lock on no listing yet is being set up.
    expect(await status(gatePicture.url)).toBe(200);
    expect(await status(loosePicture.url)).toBe(200);
  });
});
