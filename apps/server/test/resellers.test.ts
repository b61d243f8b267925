import crypto from 'node:crypto';
import type { BillingSummary, ResellerAccount } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordPlanChange } from '../src/features/billing/plan-history';
import { addLock, backdatePortal } from './billing-helpers';
import { TestApp } from './test-app';

// Resellers: sign-up, customer portals, the customer's say over the reseller acting in its portal
// (the portal override), and the billing summary a reseller sees of its own customers only.

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ LOGIN_LIMIT_PER_IP: '1000', SIGNUP_LIMIT_PER_IP: '1000' });
});
afterAll(() => t.close());

type Method = 'GET' | 'POST' | 'DELETE';
const call = (method: Method, url: string, token?: string, payload?: object, portal?: string) =>
  t.request({ method, url: `/api3/${url}`, token, portal, ...(payload && { payload }) });

/** A person with a confirmed address and a reseller account. */
async function reseller(companyName = 'Keystone Integrators') {
  const person = await t.signUp();
  const created = await call('POST', 'reseller/new', person.token, { companyName, country: 'DE' });
  expect(created.statusCode).toBe(201);
  return { ...person, code: created.json().linkCode as string, resellerId: created.json()._id as string };
}

/** Moves a reseller (and its links) back to 2025, so its past months can be summed. */
async function backdateReseller(resellerId: string) {
  const at = '2025-01-01T00:00:00.000Z';
  await t.app.db.updateTable('resellers').set({ created_at: at }).where('id', '=', resellerId).execute();
  await t.app.db
    .updateTable('reseller_links')
    .set({ linked_at: at })
    .where('reseller_id', '=', resellerId)
    .execute();
}

describe('reseller sign-up', () => {
  it('creates the person and their reseller account, and signs them in', async () => {
    const email = `installer-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const signup = await t.request({
      method: 'POST',
      url: '/api3/reseller/signup',
      payload: t.seal({
        email,
        password: 'a sturdy passphrase',
        firstName: 'Ivo',
        companyName: 'Ivo Installs GmbH',
        country: 'at',
        vatNumber: 'atu 1234 5678',
      }),
    });
    expect(signup.statusCode).toBe(201);
    const { token } = signup.json();
    const account = await call('GET', 'reseller', token);
    expect(account.json()).toEqual({
      reseller: expect.objectContaining({
        name: 'Ivo Installs GmbH',
        country: 'AT',
        vatNumber: 'ATU12345678',
      }),
      customers: [],
    });
    expect(account.json().reseller.linkCode).toMatch(/^[A-Z2-9]{8}$/);
    // The address is taken now; a second reseller account for the person is refused.
    const again = await t.request({
      method: 'POST',
      url: '/api3/reseller/signup',
      payload: t.seal({ email, password: 'a sturdy passphrase', companyName: 'Again', country: 'AT' }),
    });
    expect(again.statusCode).toBe(409);
    expect(
      (await call('POST', 'reseller/new', token, { companyName: 'Twice', country: 'AT' })).statusCode,
    ).toBe(409);
  });

  it('refuses bad input with 400, and an unsealed body', async () => {
    const person = await t.signUp();
    for (const body of [
      { companyName: '', country: 'DE' },
      { companyName: 'X', country: 'ZZ' },
      { companyName: 'X', country: 'DE', vatNumber: 'FR12345678901' },
      { companyName: 'X', country: 'US', vatNumber: 'US123' },
    ]) {
      expect((await call('POST', 'reseller/new', person.token, body)).statusCode, JSON.stringify(body)).toBe(
        400,
      );
    }
    const plain = await call('POST', 'reseller/signup', undefined, {
      email: 'plain@example.com',
      password: 'a sturdy passphrase',
      companyName: 'Plain',
      country: 'DE',
    });
    expect(plain.statusCode).toBe(400);
  });

  it('answers 404 to a person without a reseller account and 401 to no one', async () => {
    const person = await t.signUp();
    for (const url of ['reseller', 'reseller/billingSummary', 'reseller/billingSummary/2025/9']) {
      expect((await call('GET', url, person.token)).statusCode, url).toBe(404);
      expect((await call('GET', url)).statusCode, url).toBe(401);
    }
    expect(
      (
        await call('POST', 'reseller/customer', person.token, {
          portalName: 'X',
          adminEmail: 'x@example.com',
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('customer portals and acting in them', () => {
  it('creates a customer portal owned by the invited customer, where the reseller acts while allowed', async () => {
    const r = await reseller();
    const adminEmail = `clinic-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const created = await call('POST', 'reseller/customer', r.token, {
      portalName: 'Lakeside Clinic',
      timeZone: 'europe/berlin',
      adminEmail,
    });
    expect(created.statusCode).toBe(201);
    const portalId: string = created.json().portalId;
    expect(created.json()).toMatchObject({
      name: 'Lakeside Clinic',
      ownerEmail: adminEmail,
      allowActing: true,
    });
    const account = (await call('GET', 'reseller', r.token)).json<ResellerAccount>();
    expect(account.customers.map((c) => c.portalId)).toEqual([portalId]);

    // The reseller acts in it as an admin through the override.
    expect((await call('GET', 'portal/billing', r.token, undefined, portalId)).statusCode).toBe(200);
    const lock = await call(
      'POST',
      'portal/device/new',
      r.token,
      { name: 'Exam room 1', model: 'latchkey-sim', timeZone: 'UTC' },
      portalId,
    );
    expect(lock.statusCode).toBe(201);

    // The customer's admin accepts the mailed invitation and owns the portal.
    const accepted = await t.request({
      method: 'POST',
      url: '/api3/user/inviteResponse',
      payload: t.seal({
        token: await t.invitationToken(adminEmail),
        accept: true,
        password: 'clinic passphrase 1',
      }),
    });
    expect(accepted.statusCode).toBe(200);
    const owner = accepted.json().session.token as string;
    const ownerView = (await call('GET', 'portal/billing', owner)).json();
    expect(ownerView).toMatchObject({
      isOwner: true,
      reseller: { _id: r.resellerId, name: 'Keystone Integrators', allowActing: true },
    });

    // The reseller may not change its own standing in the portal: only the owner may.
    expect(
      (await call('POST', 'portal/reseller/acting', r.token, { allowActing: true }, portalId)).statusCode,
    ).toBe(403);
    expect((await call('DELETE', 'portal/reseller', r.token, undefined, portalId)).statusCode).toBe(403);

    // The owner refuses: the override is denied from the next request on.
    const refused = await call('POST', 'portal/reseller/acting', owner, { allowActing: false });
    expect(refused.json()).toMatchObject({ allowActing: false });
    const denied = await call('GET', 'portal/billing', r.token, undefined, portalId);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('portal_override_denied');
    // Still the reseller's customer (billing), just not to act in.
    expect((await call('GET', 'reseller', r.token)).json().customers).toHaveLength(1);

    await call('POST', 'portal/reseller/acting', owner, { allowActing: true });
    expect((await call('GET', 'portal/devices', r.token, undefined, portalId)).statusCode).toBe(200);

    // Unlinked: neither acting nor a customer any more.
    expect((await call('DELETE', 'portal/reseller', owner)).statusCode).toBe(204);
    expect((await call('GET', 'portal/devices', r.token, undefined, portalId)).statusCode).toBe(403);
    expect((await call('GET', 'reseller', r.token)).json().customers).toEqual([]);
    expect((await call('DELETE', 'portal/reseller', owner)).statusCode).toBe(404);

    const actions = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('portal_id', '=', portalId)
      .where('action', 'like', 'reseller.%')
      .orderBy('created_at')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'reseller.customer_create',
      'reseller.acting',
      'reseller.acting',
      'reseller.unlink',
    ]);
  });

  it('refuses an address that has an account, and needs a confirmed address to invite', async () => {
    const r = await reseller();
    const existing = await t.signUp();
    const taken = await call('POST', 'reseller/customer', r.token, {
      portalName: 'Taken',
      adminEmail: existing.email,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error.message).toContain(r.code);

    const unconfirmed = await t.signUp({ verified: false });
    await call('POST', 'reseller/new', unconfirmed.token, { companyName: 'New Co', country: 'DE' });
    const refused = await call('POST', 'reseller/customer', unconfirmed.token, {
      portalName: 'Nope',
      adminEmail: `nope-${crypto.randomUUID().slice(0, 8)}@example.com`,
    });
    expect(refused.statusCode).toBe(403);
    // Nothing was left behind by the refused creation.
    expect((await call('GET', 'reseller', unconfirmed.token)).json().customers).toEqual([]);
  });

  it('lets a portal owner link a reseller by code, without acting unless allowed', async () => {
    const r = await reseller('Code Linked Ltd');
    const owner = await t.signUp();
    expect((await call('POST', 'portal/reseller', owner.token, { code: 'WRONG123' })).statusCode).toBe(400);
    expect((await call('POST', 'portal/reseller', owner.token, { code: 'short' })).statusCode).toBe(400);
    const code = `${r.code.slice(0, 4)}-${r.code.slice(4).toLowerCase()}`;
    const linked = await call('POST', 'portal/reseller', owner.token, { code });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({ name: 'Code Linked Ltd', allowActing: false });
    expect((await call('POST', 'portal/reseller', owner.token, { code: r.code })).statusCode).toBe(409);
    expect((await call('GET', 'reseller', r.token)).json().customers).toEqual([
      expect.objectContaining({ portalId: owner.portalId, ownerEmail: owner.email, allowActing: false }),
    ]);
    expect((await call('GET', 'portal/devices', r.token, undefined, owner.portalId)).statusCode).toBe(403);

    // Another admin of the portal is not its owner: they may not link or trust resellers.
    const coAdmin = await t.signUp();
    await t.addMember(owner.portalId, coAdmin.userId, 'admin');
    const byCoAdmin = await call(
      'POST',
      'portal/reseller/acting',
      coAdmin.token,
      { allowActing: true },
      owner.portalId,
    );
    expect(byCoAdmin.statusCode).toBe(403);
    const seen = (await call('GET', 'portal/billing', coAdmin.token, undefined, owner.portalId)).json();
    expect(seen).toMatchObject({ isOwner: false, reseller: { name: 'Code Linked Ltd' } });
  });
});

describe('billing summary', () => {
  /** A customer portal of `r` on pro with `locks` locks all of September 2025. */
  async function customerWithSeptember(r: Awaited<ReturnType<typeof reseller>>, locks: number, name: string) {
    const owner = await t.signUp({ portalName: name });
    await backdatePortal(t, owner.portalId);
    await recordPlanChange(t.app.db, owner.portalId, 'pro', '2025-01-01T00:00:00Z');
    for (let i = 0; i < locks; i++)
      await addLock(t, owner.portalId, `Door ${i + 1}`, '2025-08-01T00:00:00.000Z');
    await call('POST', 'portal/reseller', owner.token, { code: r.code });
    return owner;
  }

  it('shows a reseller each of its customers billed, its wholesale cost and margin, and no one else’s', async () => {
    const r1 = await reseller('First Reseller');
    const r2 = await reseller('Second Reseller');
    const a = await customerWithSeptember(r1, 3, 'Alpha Offices');
    const b = await customerWithSeptember(r1, 1, 'Beta Flats');
    const c = await customerWithSeptember(r2, 2, 'Gamma Gym');
    await backdateReseller(r1.resellerId);
    await backdateReseller(r2.resellerId);

    const september = await call('GET', 'reseller/billingSummary/2025/9', r1.token);
    expect(september.statusCode).toBe(200);
    const summary = september.json<BillingSummary>();
    expect(summary).toMatchObject({ year: 2025, month: 9, status: 'closed', currency: 'EUR' });
    // 3 locks × €4.00 = €12.00 billed, 3 × €2.80 = €8.40 wholesale; 1 lock: €4.00 and €2.80.
    expect(summary.customers).toEqual([
      expect.objectContaining({
        portalId: a.portalId,
        portalName: 'Alpha Offices',
        billedNetMinor: 1200,
        billedTotalMinor: 1428,
        wholesaleMinor: 840,
        marginMinor: 360,
        invoiceNumber: expect.stringMatching(/^LK-/),
      }),
      expect.objectContaining({
        portalId: b.portalId,
        billedNetMinor: 400,
        wholesaleMinor: 280,
        marginMinor: 120,
      }),
    ]);
    expect(summary.totals).toEqual({
      billedNetMinor: 1600,
      billedTotalMinor: 1904,
      wholesaleMinor: 1120,
      marginMinor: 480,
    });
    expect(JSON.stringify(summary)).not.toContain(c.portalId);
    const other = (await call('GET', 'reseller/billingSummary/2025/9', r2.token)).json<BillingSummary>();
    expect(other.customers.map((row) => row.portalId)).toEqual([c.portalId]);

    // Neither reseller acts in the other's customers (nor in its own here: not allowed).
    for (const [token, portalId] of [
      [r1.token, c.portalId],
      [r2.token, a.portalId],
      [r1.token, a.portalId],
    ] as const) {
      expect((await call('GET', 'portal/billing', token, undefined, portalId)).statusCode).toBe(403);
    }

    // This month: the customers linked now, so far.
    const now = (await call('GET', 'reseller/billingSummary', r1.token)).json<BillingSummary>();
    expect(now.status).toBe('open');
    expect(now.customers.map((row) => row.portalName).sort()).toEqual(['Alpha Offices', 'Beta Flats']);
    expect(now).toMatchObject({ firstYear: 2025, firstMonth: 1 });
  });

  it('answers 404 before the reseller existed or in the future, 400 for a month that is not one', async () => {
    const r = await reseller();
    const status = async (url: string) => (await call('GET', url, r.token)).statusCode;
    expect(await status('reseller/billingSummary/2025/9')).toBe(404);
    expect(await status('reseller/billingSummary/9999/1')).toBe(404);
    expect(await status('reseller/billingSummary/2025/13')).toBe(400);
    expect(await status('reseller/billingSummary/x/1')).toBe(400);
    expect(await status('reseller/billingSummary')).toBe(200);
  });
});

describe('acting in a customer portal: what the app is told, and the change log', () => {
  it('says who acts in the portal and why (member, reseller, platform staff), and logs their changes', async () => {
    const r = await reseller('Banner Resellers');
    const adminEmail = `acted-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const portalId: string = (
      await call('POST', 'reseller/customer', r.token, { portalName: 'Acted Clinic', adminEmail })
    ).json().portalId;

    // Without the override the reseller acts in its own portal, as a member.
    const own = await call('GET', 'portal/acting', r.token);
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ via: 'member', portal: { _id: r.portalId }, reseller: null });

    // Through the override, as the customer's reseller: the banner's words come from here.
    const asReseller = await call('GET', 'portal/acting', r.token, undefined, portalId);
    expect(asReseller.statusCode).toBe(200);
    expect(asReseller.json()).toEqual({
      via: 'reseller',
      portal: { _id: portalId, name: 'Acted Clinic' },
      ownerEmail: adminEmail,
      reseller: { _id: r.resellerId, name: 'Banner Resellers' },
    });

    // The customer list: its standing and locks.
    const added = await call(
      'POST',
      'portal/device/new',
      r.token,
      { name: 'Front desk', model: 'latchkey-sim', timeZone: 'UTC' },
      portalId,
    );
    expect(added.statusCode).toBe(201);
    const customers = (await call('GET', 'reseller', r.token)).json<ResellerAccount>().customers;
    expect(customers).toEqual([
      expect.objectContaining({ portalId, name: 'Acted Clinic', lockCount: 1, current: false, plan: 'free' }),
    ]);

    // Platform staff through the override.
    const staff = await t.createSuperAdmin();
    const asStaff = await call('GET', 'portal/acting', staff.token, undefined, portalId);
    expect(asStaff.json()).toMatchObject({ via: 'platform', ownerEmail: adminEmail, reseller: null });
    const staffLock = await call(
      'POST',
      'portal/device/new',
      staff.token,
      { name: 'Back door', model: 'latchkey-sim', timeZone: 'UTC' },
      portalId,
    );
    expect(staffLock.statusCode).toBe(201);

    // Each change made while acting is in the customer's change log under the person who made it.
    const created = await t.app.db
      .selectFrom('audit_log as a')
      .innerJoin('users as u', 'u.id', 'a.actor_user_id')
      .select(['a.action', 'u.email'])
      .where('a.portal_id', '=', portalId)
      .where('a.action', '=', 'device.create')
      .orderBy('a.created_at')
      .execute();
    expect(created).toEqual([
      { action: 'device.create', email: r.email },
      { action: 'device.create', email: staff.email },
    ]);

    // Someone else may not ask about the portal at all; nobody signed out either.
    const stranger = await t.signUp();
    const denied = await call('GET', 'portal/acting', stranger.token, undefined, portalId);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error.code).toBe('portal_override_denied');
    expect((await call('GET', 'portal/acting', undefined, undefined, portalId)).statusCode).toBe(401);

    // Once the customer stops it, the reseller is refused there (and is told nothing about it).
    const owner = await t.request({
      method: 'POST',
      url: '/api3/user/inviteResponse',
      payload: t.seal({
        token: await t.invitationToken(adminEmail),
        accept: true,
        password: 'clinic passphrase 1',
      }),
    });
    const ownerToken = owner.json().session.token as string;
    expect((await call('GET', 'portal/acting', ownerToken)).json()).toMatchObject({ via: 'member' });
    await call('POST', 'portal/reseller/acting', ownerToken, { allowActing: false });
    expect((await call('GET', 'portal/acting', r.token, undefined, portalId)).statusCode).toBe(403);
  });
});

describe('GET reseller/mine', () => {
  it('says whether the signed-in person has a reseller account, for the menu', async () => {
    const r = await reseller('Menu Resellers');
    expect((await call('GET', 'reseller/mine', r.token)).json()).toEqual({
      reseller: { _id: r.resellerId, name: 'Menu Resellers' },
    });
    const someone = await t.signUp();
    const none = await call('GET', 'reseller/mine', someone.token);
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual({ reseller: null });
    expect((await call('GET', 'reseller/mine')).statusCode).toBe(401);
  });
});
