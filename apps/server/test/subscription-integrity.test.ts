import crypto from 'node:crypto';
import type { PortalSubscription } from '@latchkey/shared';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { currentPlan } from '../src/features/billing/plan-history';
import { sweepPayments } from '../src/features/payments/payments.service';
import { seedCatalogue } from '../src/features/shop/catalogue';
import { seedLapsedSubscription } from '../src/features/subscriptions/demo-subscription';
import { addLock as insertLockRow } from './billing-helpers';
import { CARDS, orderBody, payOnSandbox } from './sandbox-checkout';
import { makeOwner } from './factories';
import { TestApp } from './test-app';

/**
 * Issue 16, defects 6 and 7 (money), through the sandbox provider end to end:
 * - one running subscription per portal: two plan checkouts opened before paying either could
 *   both be paid, leaving Pro and Business running at once (today's main keeps both);
 * - plans that hold: a portal that is not paid up has the Free plan's 2 locks (today's main lets
 *   a free portal, or a lapsed one moved to Free, add any number), and a running subscription's
 *   quantity follows the lock count (today's main leaves it at the quantity paid for at checkout).
 * The Stripe side of both is in subscription-integrity-stripe.test.ts.
 */

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({
    LOGIN_LIMIT_PER_IP: '1000',
    SIGNUP_LIMIT_PER_IP: '1000',
    PAYMENTS_SWEEP_MS: '0',
    // What production does (TestApp turns it off for other features' tests).
    PLAN_LOCK_LIMITS: 'true',
  });
  await seedCatalogue(t.app.db);
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

type Admin = Awaited<ReturnType<TestApp['signUp']>>;

const addLock = (admin: Admin, name = `Door ${crypto.randomUUID().slice(0, 6)}`) =>
  t.request({
    method: 'POST',
    url: '/api3/portal/device/new',
    token: admin.token,
    payload: { name, model: 'latchkey-sim', timeZone: 'UTC' },
  });

async function addLocks(admin: Admin, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const response = await addLock(admin);
    expect(response.statusCode, response.body).toBe(201);
    ids.push(response.json().device._id);
  }
  return ids;
}

const subscriptionOf = async (admin: Admin) =>
  (
    await t.request({ method: 'GET', url: '/api3/portal/subscription', token: admin.token })
  ).json<PortalSubscription>();

const lockCount = async (portalId: string) =>
  (
    await t.app.db
      .selectFrom('devices')
      .select('id')
      .where('portal_id', '=', portalId)
      .where('deleted_at', 'is', null)
      .execute()
  ).length;

async function openPlanCheckout(admin: Admin, plan: 'pro' | 'business') {
  const started = await t.request({
    method: 'POST',
    url: '/api3/portal/subscription/checkout',
    token: admin.token,
    payload: { plan },
  });
  expect(started.statusCode, started.body).toBe(201);
  return started.json<{ checkoutId: string; url: string }>();
}

const sandbox = () => t.app.payments.sandbox!;

/** The portal's subscriptions as the sandbox provider keeps them (its own books). */
const providerSubscriptions = (portalId: string) =>
  t.app.db
    .selectFrom('sandbox_subscriptions')
    .selectAll()
    .where('metadata_json', 'like', `%"portal_id":"${portalId}"%`)
    .execute();

/** The portal's subscriptions in our tables. */
const ourSubscriptions = (portalId: string) =>
  t.app.db.selectFrom('subscriptions').selectAll().where('portal_id', '=', portalId).execute();

const running = <T extends { status: string }>(rows: T[]) =>
  rows.filter((row) => ['active', 'trialing', 'past_due', 'unpaid'].includes(row.status));

/**
 * Two plan checkouts open and payable at once. Opening the second ends the first, so this is the
 * case where ending it at the provider failed (an outage), or both were opened at the same moment.
 */
async function twoPayableCheckouts(admin: Admin) {
  vi.spyOn(t.app.payments.provider, 'expireCheckout').mockRejectedValueOnce(new Error('provider down'));
  const pro = await openPlanCheckout(admin, 'pro');
  const business = await openPlanCheckout(admin, 'business');
  return { pro, business };
}

/** Exactly one subscription runs, at the provider and here, on `plan`; the portal shows it. */
async function expectOneRunning(admin: Admin, plan: 'pro' | 'business') {
  await sandbox().deliverDue();
  const atProvider = running(await providerSubscriptions(admin.portalId));
  const ours = running(await ourSubscriptions(admin.portalId));
  expect(atProvider).toHaveLength(1);
  expect(ours).toHaveLength(1);
  expect(ours[0]!.provider_subscription_id).toBe(atProvider[0]!.id);
  expect(ours[0]!.plan).toBe(plan);
  expect(JSON.parse(atProvider[0]!.metadata_json).plan).toBe(plan);
  expect(await subscriptionOf(admin)).toMatchObject({ plan, standing: 'active', current: true });
  expect(await currentPlan(t.app.db, admin.portalId)).toBe(plan);
  // The replaced one ended at once (not at period end), as a replacement: no lapse alert for staff.
  const ended = (await providerSubscriptions(admin.portalId)).filter((row) => row.status === 'canceled');
  expect(ended).toHaveLength(1);
  const alerts = await t.app.db
    .selectFrom('staff_alerts')
    .select('kind')
    .where('portal_id', '=', admin.portalId)
    .where('kind', '=', 'subscription_lapsed')
    .execute();
  expect(alerts).toEqual([]);
}

/** DELETE stripe/cancel ends the one subscription there is; at the period's end nothing runs. */
async function expectCancelEndsIt(admin: Admin) {
  const canceled = await t.request({ method: 'DELETE', url: '/api3/stripe/cancel', token: admin.token });
  expect(canceled.statusCode, canceled.body).toBe(200);
  expect(canceled.json()).toMatchObject({ cancelAtPeriodEnd: true });
  await sweepPayments(t.app.db, t.app.payments, new Date(Date.now() + 40 * 86_400_000));
  await sandbox().deliverDue();
  expect(running(await providerSubscriptions(admin.portalId))).toEqual([]);
  expect(running(await ourSubscriptions(admin.portalId))).toEqual([]);
}

describe('one running subscription per portal (defect 6)', () => {
  it('opening a second plan checkout ends the first, which can no longer be paid', async () => {
    const admin = await makeOwner(t);
    const first = await openPlanCheckout(admin, 'pro');
    const second = await openPlanCheckout(admin, 'business');
    const firstRow = await t.app.db
      .selectFrom('checkouts')
      .selectAll()
      .where('id', '=', first.checkoutId)
      .executeTakeFirstOrThrow();
    expect(firstRow.status).toBe('canceled');
    const session = await t.app.db
      .selectFrom('sandbox_sessions')
      .select('status')
      .where('id', '=', firstRow.provider_session_id!)
      .executeTakeFirstOrThrow();
    expect(session.status).toBe('expired');
    // The first page now sends the buyer to the cancel page; nothing is charged.
    const late = await payOnSandbox(t, first.url, CARDS.success);
    expect(late.statusCode).toBe(303);
    expect(late.headers.location).toMatch(/\/canceled\?/);
    expect(await providerSubscriptions(admin.portalId)).toEqual([]);

    const paid = await payOnSandbox(t, second.url, CARDS.success);
    expect(paid.headers.location).toMatch(/\/success\?/);
    expect(running(await ourSubscriptions(admin.portalId))).toHaveLength(1);
    expect(await subscriptionOf(admin)).toMatchObject({ plan: 'business', standing: 'active' });
  });

  it('both paid, the earlier first: the later payment replaces the earlier subscription', async () => {
    const admin = await makeOwner(t);
    await addLocks(admin, 1);
    const { pro, business } = await twoPayableCheckouts(admin);
    expect((await payOnSandbox(t, pro.url, CARDS.success)).headers.location).toMatch(/\/success\?/);
    expect((await payOnSandbox(t, business.url, CARDS.success)).headers.location).toMatch(/\/success\?/);
    await expectOneRunning(admin, 'business');
    await expectCancelEndsIt(admin);
  });

  it('both paid, in the other order: the later payment (Pro) replaces Business', async () => {
    const admin = await makeOwner(t);
    const { pro, business } = await twoPayableCheckouts(admin);
    await payOnSandbox(t, business.url, CARDS.success);
    await payOnSandbox(t, pro.url, CARDS.success);
    await expectOneRunning(admin, 'pro');
    await expectCancelEndsIt(admin);
  });

  it('both paid at the same moment: exactly one runs, the one the portal shows', async () => {
    const admin = await makeOwner(t);
    const { pro, business } = await twoPayableCheckouts(admin);
    const results = await Promise.all([
      payOnSandbox(t, pro.url, CARDS.success),
      payOnSandbox(t, business.url, CARDS.success),
    ]);
    for (const result of results) expect(result.headers.location).toMatch(/\/success\?/);
    await sandbox().deliverDue();
    const [kept] = running(await ourSubscriptions(admin.portalId));
    expect(kept).toBeDefined();
    await expectOneRunning(admin, kept!.plan as 'pro' | 'business');
    await expectCancelEndsIt(admin);
  });

  it('a replacement the provider could not make is made by the payments sweep', async () => {
    const admin = await makeOwner(t);
    const { pro, business } = await twoPayableCheckouts(admin);
    await payOnSandbox(t, pro.url, CARDS.success);
    // The provider does not answer while the later payment's webhooks arrive (each one tries).
    const cancelNow = vi
      .spyOn(t.app.payments.provider, 'cancelSubscriptionNow')
      .mockRejectedValue(new Error('provider down'));
    await payOnSandbox(t, business.url, CARDS.success);
    await sandbox().deliverDue();
    expect(cancelNow).toHaveBeenCalled();
    expect(running(await providerSubscriptions(admin.portalId))).toHaveLength(2);
    cancelNow.mockRestore();
    await sweepPayments(t.app.db, t.app.payments);
    await expectOneRunning(admin, 'business');
  });
});

describe('plans that hold (defect 7)', () => {
  const refusal = (response: {
    statusCode: number;
    json: () => { error: { code: string; message: string } };
  }) => {
    expect(response.statusCode).toBe(402);
    expect(response.json().error.code).toBe('payment_required');
    return response.json().error.message;
  };

  it('a free portal adds up to the Free plan’s 2 locks, by either path, and is told why not more', async () => {
    const admin = await makeOwner(t);
    await addLocks(admin, 2);
    expect(refusal(await addLock(admin))).toBe(
      'The Free plan allows 2 locks and this portal has 2. Its locks keep working; choose a paid plan (Upgrade) to add more.',
    );
    const codeLock = await t.request({
      method: 'POST',
      url: '/api3/device/codelock/add',
      token: admin.token,
      payload: { name: 'Shed', code: '4711' },
    });
    refusal(codeLock);
    expect(await lockCount(admin.portalId)).toBe(2);
  });

  it('two locks added at the same moment to a portal with one place left: one is refused', async () => {
    const admin = await makeOwner(t);
    await addLocks(admin, 1);
    const results = await Promise.all([addLock(admin), addLock(admin), addLock(admin)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 402, 402]);
    expect(await lockCount(admin.portalId)).toBe(2);
  });

  it('a lapsed portal moved to Free may have the Free plan’s locks, not more', async () => {
    const admin = await makeOwner(t);
    await addLocks(admin, 1);
    await seedLapsedSubscription(t.app.db, admin.portalId, {
      plan: 'pro',
      startedDaysAgo: 70,
      lapsedDaysAgo: 10,
    });
    // Lapsed: no lock at all until it pays or moves to Free.
    expect(refusal(await addLock(admin))).toMatch(/not paid up/);
    const free = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/free',
      token: admin.token,
    });
    expect(free.statusCode, free.body).toBe(200);
    await addLocks(admin, 1);
    refusal(await addLock(admin));
    expect(await lockCount(admin.portalId)).toBe(2);
  });

  it('a portal over the allowance keeps its locks and may change them, but cannot grow', async () => {
    const admin = await makeOwner(t);
    const ids: string[] = [];
    for (let i = 1; i <= 4; i++) {
      ids.push(await insertLockRow(t, admin.portalId, `Old door ${i}`, new Date().toISOString()));
    }
    refusal(await addLock(admin));
    const renamed = await t.request({
      method: 'POST',
      url: `/api3/portal/device/${ids[0]}`,
      token: admin.token,
      payload: { name: 'Old door, renamed' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const removed = await t.request({
      method: 'DELETE',
      url: `/api3/portal/device/${ids[1]}`,
      token: admin.token,
    });
    expect(removed.statusCode).toBe(204);
    expect(refusal(await addLock(admin))).toMatch(/allows 2 locks and this portal has 3/);
    expect(await lockCount(admin.portalId)).toBe(3);
  });

  it('the shop does not pre-register more locks than the buyer’s portal may have', async () => {
    const admin = await makeOwner(t);
    await addLocks(admin, 1);
    const before = await t.app.db.selectFrom('orders').select('id').execute();
    const order = await t.request({
      method: 'POST',
      url: '/api3/stripe/order',
      token: admin.token,
      remoteAddress: `10.9.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
      payload: orderBody([{ productId: 'smart-lock', quantity: 2 }], admin.email),
    });
    expect(refusal(order)).toMatch(/2 locks more would be too many/);
    expect(await t.app.db.selectFrom('orders').select('id').execute()).toHaveLength(before.length);
  });

  it('a paid portal grows past the Free allowance and its subscription’s quantity follows its locks', async () => {
    const admin = await makeOwner(t);
    await addLocks(admin, 1);
    const { url } = await openPlanCheckout(admin, 'pro');
    await payOnSandbox(t, url, CARDS.success);
    const quantities = async () => ({
      provider: (await providerSubscriptions(admin.portalId))[0]!.quantity,
      ours: running(await ourSubscriptions(admin.portalId))[0]!.quantity,
    });
    expect(await quantities()).toEqual({ provider: 1, ours: 1 });

    const added = await addLocks(admin, 5);
    expect(await lockCount(admin.portalId)).toBe(6);
    expect(await quantities()).toEqual({ provider: 6, ours: 6 });

    await t.request({ method: 'DELETE', url: `/api3/portal/device/${added[0]}`, token: admin.token });
    expect(await quantities()).toEqual({ provider: 5, ours: 5 });

    // A provider that does not answer: the lock is added all the same, the sweep catches up.
    vi.spyOn(t.app.payments.provider, 'setSubscriptionQuantity').mockRejectedValueOnce(
      new Error('provider down'),
    );
    expect((await addLock(admin)).statusCode).toBe(201);
    expect(await quantities()).toEqual({ provider: 5, ours: 5 });
    await sweepPayments(t.app.db, t.app.payments);
    expect(await quantities()).toEqual({ provider: 6, ours: 6 });
    expect(await subscriptionOf(admin)).toMatchObject({ lockCount: 6, plan: 'pro', standing: 'active' });
  });
});
