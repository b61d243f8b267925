import crypto from 'node:crypto';
import type { PortalSubscription } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/base/mail/mail.repository';
import { sweepPayments } from '../src/features/payments/payments.service';
import {
  CARDS,
  checkoutOf,
  confirmOnSandbox,
  pagePath,
  payOnSandbox,
  postEvent,
  redeliver,
} from './sandbox-checkout';
import { makeOwner } from './factories';
import { TestApp } from './test-app';

/**
 * Plans and the portal's standing through the built-in sandbox provider, end to end: the admin
 * starts a checkout, pays on the hosted page with a test card, and only the signed webhook the
 * sandbox sends changes the portal (gopro, upgrade, upgradeLegacy, stripe/cancel).
 */

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({
    LOGIN_LIMIT_PER_IP: '1000',
    SIGNUP_LIMIT_PER_IP: '1000',
    PAYMENTS_SWEEP_MS: '0',
  });
});
afterAll(() => t.close());

async function portalWithLock() {
  const admin = await makeOwner(t);
  const lock = await t.request({
    method: 'POST',
    url: '/api3/portal/device/new',
    token: admin.token,
    payload: { name: 'Front door', model: 'latchkey-sim', timeZone: 'UTC' },
  });
  expect(lock.statusCode).toBe(201);
  return admin;
}

const subscription = async (token: string) =>
  (await t.request({ method: 'GET', url: '/api3/portal/subscription', token })).json<PortalSubscription>();

async function subscribe(token: string, plan: 'pro' | 'business', card: string = CARDS.success) {
  const started = await t.request({
    method: 'POST',
    url: '/api3/portal/subscription/checkout',
    token,
    payload: { plan },
  });
  expect(started.statusCode, started.body).toBe(201);
  const { url, checkoutId } = started.json<{ url: string; checkoutId: string }>();
  const paid = await payOnSandbox(t, url, card);
  return { url, checkoutId, paid };
}

describe('the standing of a new portal', () => {
  it('is free, on the sandbox provider, for admins only', async () => {
    const admin = await portalWithLock();
    expect(await subscription(admin.token)).toMatchObject({
      plan: 'free',
      standing: 'free',
      current: false,
      provider: 'sandbox',
      billing: 'none',
      lockCount: 1,
      canManageCard: false,
    });
    expect((await t.request({ method: 'GET', url: '/api3/portal/subscription' })).statusCode).toBe(401);
    const member = await makeOwner(t);
    await t.addMember(admin.portalId, member.userId, 'user');
    const asMember = await t.request({
      method: 'GET',
      url: '/api3/portal/subscription',
      token: member.token,
      portal: admin.portalId,
    });
    expect(asMember.statusCode).toBe(403);
  });

  it('refuses a plan that is not a paid one', async () => {
    const admin = await makeOwner(t);
    for (const plan of ['free', 'gold', '', 7]) {
      const response = await t.request({
        method: 'POST',
        url: '/api3/portal/subscription/checkout',
        token: admin.token,
        payload: { plan },
      });
      expect(response.statusCode, String(plan)).toBe(400);
    }
  });
});

describe('gopro: subscribing through the sandbox checkout', () => {
  it('changes nothing until the provider says it was paid, then the portal is current on Pro', async () => {
    const admin = await portalWithLock();
    const started = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/checkout',
      token: admin.token,
      payload: { plan: 'pro' },
    });
    expect(started.statusCode).toBe(201);
    const { url, checkoutId } = started.json();
    expect(pagePath(url)).toMatch(/^\/api3\/sandbox-pay\/cs_test_sbx_/);

    // The hosted page shows the price per lock, from the server's catalogue.
    const page = await t.request({ method: 'GET', url: pagePath(url) });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('1 × Latchkey Pro');
    expect(page.body).toContain('€4.00');

    // Nothing is paid yet: a browser that went to the success page anyway changes nothing.
    expect(await subscription(admin.token)).toMatchObject({ plan: 'free', standing: 'free' });

    const paid = await payOnSandbox(t, url, CARDS.success);
    expect(paid.statusCode).toBe(303);
    const location = paid.headers.location as string;
    expect(location).toMatch(/\/success\?checkout=/);
    const { id, token } = checkoutOf(location);
    expect(id).toBe(checkoutId);

    const view = await t.request({ method: 'GET', url: `/api3/payments/checkout/${id}?token=${token}` });
    expect(view.json()).toMatchObject({
      kind: 'subscription',
      status: 'complete',
      plan: 'pro',
      amountTotal: 400,
    });
    const after = await subscription(admin.token);
    expect(after).toMatchObject({
      plan: 'pro',
      standing: 'active',
      current: true,
      stripe: { status: 'active' },
      billing: 'subscription',
      cancelAtPeriodEnd: false,
      canManageCard: true,
    });
    // Paid up to the end of the month paid for, plus the grace days.
    const paidFor = Date.parse(after.expireDate!) - Date.now();
    expect(paidFor).toBeGreaterThan(30 * 86_400_000);
    expect(paidFor).toBeLessThan(35 * 86_400_000);
    const session = (await t.request({ method: 'GET', url: '/api3/auth', token: admin.token })).json();
    expect(session.portal).toMatchObject({ current: true, stripe: { status: 'active' } });

    // Audited: the plan in the portal's change log, the money in the commerce audit.
    const log = await t.app.db
      .selectFrom('audit_log')
      .select('action')
      .where('portal_id', '=', admin.portalId)
      .execute();
    expect(log.map((entry) => entry.action)).toEqual(
      expect.arrayContaining([
        'checkout.start',
        'subscription.create',
        'plan.change',
        'subscription.paid',
        'checkout.complete',
      ]),
    );
  });

  it('needs a second confirmation step for the 3-D Secure card, and a failed one charges nothing', async () => {
    const admin = await portalWithLock();
    const { url, paid } = await subscribe(admin.token, 'pro', CARDS.confirm);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(pagePath(url));
    const step = await t.request({ method: 'GET', url: pagePath(url) });
    expect(step.body).toContain('Confirm this payment');
    const failed = await confirmOnSandbox(t, url, false);
    expect(failed.statusCode).toBe(402);
    expect(failed.body).toContain('nothing was charged');
    expect((await subscription(admin.token)).plan).toBe('free');

    // The buyer tries again and confirms.
    await payOnSandbox(t, url, CARDS.confirm);
    const confirmed = await confirmOnSandbox(t, url, true);
    expect(confirmed.statusCode).toBe(303);
    expect(confirmed.headers.location).toMatch(/\/success\?/);
    expect(await subscription(admin.token)).toMatchObject({ plan: 'pro', standing: 'active' });
  });

  it('declines the declined card (nothing changes, staff are told) and the buyer may turn back', async () => {
    const admin = await portalWithLock();
    const { url, checkoutId, paid } = await subscribe(admin.token, 'business', CARDS.declined);
    expect(paid.statusCode).toBe(402);
    expect(paid.body).toContain('Your card was declined');
    expect(await subscription(admin.token)).toMatchObject({ plan: 'free', standing: 'free' });
    const alert = await t.app.db
      .selectFrom('staff_alerts')
      .selectAll()
      .where('kind', '=', 'payment_failed')
      .where('portal_id', '=', admin.portalId)
      .executeTakeFirst();
    expect(alert?.message).toContain(checkoutId);

    // A card number that is no test card is declined too, and bad fields are shown on the form.
    expect((await payOnSandbox(t, url, '4111 1111 1111 1111')).statusCode).toBe(402);
    const invalid = await payOnSandbox(t, url, '1234', { expiry: '13/20', cvc: 'x' });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('Enter a valid card number');
    expect(invalid.body).toContain('Enter the expiry as MM/YY');

    // The cancel link of the hosted page leads to /canceled, which ends the checkout.
    const cancelUrl = new URL(
      /href="([^"]*\/canceled\?[^"]*)"/.exec(paid.body)![1]!.replaceAll('&#38;', '&'),
    );
    const { id, token } = checkoutOf(cancelUrl.toString());
    const canceled = await t.request({
      method: 'POST',
      url: `/api3/payments/checkout/${id}/cancel`,
      payload: { token },
    });
    expect(canceled.json()).toMatchObject({ status: 'canceled' });
    // Paying after turning back is no longer possible.
    const late = await payOnSandbox(t, url, CARDS.success);
    expect(late.statusCode).toBe(303);
    expect(late.headers.location).toContain('/canceled?');
    expect((await subscription(admin.token)).plan).toBe('free');
  });

  it('shows a checkout only with its token', async () => {
    const admin = await portalWithLock();
    const { paid } = await subscribe(admin.token, 'pro');
    const { id } = checkoutOf(paid.headers.location as string);
    for (const token of ['x'.repeat(32), crypto.randomBytes(24).toString('base64url')]) {
      const response = await t.request({
        method: 'GET',
        url: `/api3/payments/checkout/${id}?token=${token}`,
      });
      expect(response.statusCode).toBe(404);
    }
    expect((await t.request({ method: 'GET', url: `/api3/payments/checkout/${id}` })).statusCode).toBe(400);
  });

  it('refuses a second subscription, and changes the plan of the running one', async () => {
    const admin = await portalWithLock();
    await subscribe(admin.token, 'pro');
    const again = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/checkout',
      token: admin.token,
      payload: { plan: 'business' },
    });
    expect(again.statusCode).toBe(409);
    const same = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/plan',
      token: admin.token,
      payload: { plan: 'pro' },
    });
    expect(same.statusCode).toBe(409);
    const changed = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/plan',
      token: admin.token,
      payload: { plan: 'business' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ plan: 'business', standing: 'active' });
    const sandbox = await t.app.db.selectFrom('sandbox_subscriptions').select('unit_amount').execute();
    expect(sandbox.map((row) => row.unit_amount)).toContain(700);
  });

  it('changes no plan for a portal without a subscription', async () => {
    const admin = await makeOwner(t);
    for (const [method, url] of [
      ['POST', '/api3/portal/subscription/plan'],
      ['DELETE', '/api3/stripe/cancel'],
      ['POST', '/api3/portal/subscription/resume'],
      ['POST', '/api3/portal/subscription/card'],
    ] as const) {
      const response = await t.request({
        method,
        url,
        token: admin.token,
        ...(method === 'POST' && url.endsWith('/plan') && { payload: { plan: 'business' } }),
      });
      expect(response.statusCode, url).toBe(409);
    }
  });
});

describe('stripe/cancel and the end of a period', () => {
  it('cancels at the end of the period: canceling until then, free afterwards', async () => {
    const admin = await portalWithLock();
    await subscribe(admin.token, 'pro');
    const canceled = await t.request({ method: 'DELETE', url: '/api3/stripe/cancel', token: admin.token });
    expect(canceled.statusCode).toBe(200);
    expect(canceled.json()).toMatchObject({
      plan: 'pro',
      standing: 'canceling',
      cancelAtPeriodEnd: true,
      current: true,
    });
    expect(
      (await t.request({ method: 'DELETE', url: '/api3/stripe/cancel', token: admin.token })).statusCode,
    ).toBe(409);
    const resumed = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/resume',
      token: admin.token,
    });
    expect(resumed.json()).toMatchObject({ standing: 'active', cancelAtPeriodEnd: false });
    await t.request({ method: 'DELETE', url: '/api3/stripe/cancel', token: admin.token });

    // The period ends.
    const customer = await sandboxCustomerOf(admin.portalId);
    await t.app.db
      .updateTable('sandbox_subscriptions')
      .set({ current_period_end: new Date(Date.now() - 1000).toISOString() })
      .where('customer_id', '=', customer)
      .execute();
    await sweepPayments(t.app.db, t.app.payments);
    expect(await subscription(admin.token)).toMatchObject({
      plan: 'free',
      standing: 'free',
      stripe: { status: 'canceled' },
      billing: 'none',
    });
    // A free portal grows as it likes.
    const lock = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: 'Back door', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    expect(lock.statusCode).toBe(201);
  });

  it('tells the owner and staff of a failed renewal, lapses, and may not grow until paid again', async () => {
    const admin = await portalWithLock();
    await subscribe(admin.token, 'pro', CARDS.failsLater);
    const customer = await sandboxCustomerOf(admin.portalId);
    await t.app.db
      .updateTable('sandbox_subscriptions')
      .set({ current_period_end: new Date(Date.now() - 1000).toISOString() })
      .where('customer_id', '=', customer)
      .execute();
    await sweepPayments(t.app.db, t.app.payments);
    const failing = await subscription(admin.token);
    expect(failing).toMatchObject({
      plan: 'pro',
      standing: 'past_due',
      stripe: { status: 'past_due' },
      current: true,
    });
    expect(failing.paymentFailedAt).not.toBeNull();
    const mail = await listMailTo(t.app.db, admin.email);
    expect(mail.map((m) => m.template)).toContain('payment_failed');
    expect(
      await t.app.db
        .selectFrom('staff_alerts')
        .select('kind')
        .where('portal_id', '=', admin.portalId)
        .where('kind', '=', 'payment_failed')
        .execute(),
    ).toHaveLength(1);

    // The dunning days pass: the provider ends the subscription; the plan stays, paid time runs out.
    await t.app.db
      .updateTable('sandbox_subscriptions')
      .set({ current_period_start: new Date(Date.now() - 5 * 86_400_000).toISOString() })
      .where('customer_id', '=', customer)
      .execute();
    await sweepPayments(t.app.db, t.app.payments);
    await t.app.db
      .updateTable('portals')
      .set({ expire_date: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', admin.portalId)
      .execute();
    expect(await subscription(admin.token)).toMatchObject({
      plan: 'pro',
      standing: 'lapsed',
      current: false,
    });

    // Lapsed: the locks and the access on them stay; no new locks or people.
    const lock = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: 'Gate', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    expect(lock.statusCode).toBe(402);
    expect(lock.json().error.code).toBe('payment_required');
    const person = await t.request({
      method: 'POST',
      url: '/api3/portal/user',
      token: admin.token,
      payload: { email: `new-${crypto.randomUUID().slice(0, 6)}@example.com` },
    });
    expect(person.statusCode).toBe(402);
    expect(
      (await t.request({ method: 'GET', url: '/api3/portal/devices', token: admin.token })).json().total,
    ).toBe(1);

    // Going back to Free is refused while paid up, allowed once lapsed (not done here: it pays again).
    const active = await makeOwner(t);
    expect(
      (await t.request({ method: 'POST', url: '/api3/portal/subscription/free', token: active.token }))
        .statusCode,
    ).toBe(409);

    // Paying again (a new subscription) brings it back.
    const { paid } = await subscribe(admin.token, 'pro');
    expect(paid.statusCode).toBe(303);
    expect(await subscription(admin.token)).toMatchObject({ plan: 'pro', standing: 'active', current: true });
    const again = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: 'Gate', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    expect(again.statusCode).toBe(201);
  });

  it('changes the card on the provider page, after which a past-due renewal is paid', async () => {
    const admin = await portalWithLock();
    await subscribe(admin.token, 'pro', CARDS.failsLater);
    const customer = await sandboxCustomerOf(admin.portalId);
    await t.app.db
      .updateTable('sandbox_subscriptions')
      .set({ current_period_end: new Date(Date.now() - 1000).toISOString() })
      .where('customer_id', '=', customer)
      .execute();
    await sweepPayments(t.app.db, t.app.payments);
    expect((await subscription(admin.token)).standing).toBe('past_due');

    const link = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/card',
      token: admin.token,
    });
    expect(link.statusCode).toBe(200);
    const page = pagePath(link.json().url);
    const form = await t.request({ method: 'GET', url: page });
    expect(form.body).toContain('Card ending in <strong>0341</strong>');
    const saved = await t.request({
      method: 'POST',
      url: page,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ number: CARDS.success, expiry: '12/34', cvc: '123' }).toString(),
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain('Your new card is saved');
    expect(await subscription(admin.token)).toMatchObject({ standing: 'active', paymentFailedAt: null });
    const forged = await t.request({ method: 'GET', url: `${page.slice(0, -3)}AAA` });
    expect(forged.statusCode).toBe(404);
  });
});

describe('going back to the Free plan', () => {
  it('lets a lapsed portal go back to Free and grow again, and nobody else', async () => {
    const admin = await portalWithLock();
    await subscribe(admin.token, 'pro');
    const free = () =>
      t.request({ method: 'POST', url: '/api3/portal/subscription/free', token: admin.token });
    expect((await free()).json().error.message).toContain('Cancel the subscription instead');
    // The subscription is ended by the provider for non-payment and the paid time runs out.
    const row = await t.app.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('portal_id', '=', admin.portalId)
      .executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('subscriptions')
      .set({ status: 'canceled' })
      .where('id', '=', row.id)
      .execute();
    await t.app.db
      .updateTable('portals')
      .set({ stripe_status: 'canceled', expire_date: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', admin.portalId)
      .execute();
    expect((await subscription(admin.token)).standing).toBe('lapsed');
    const moved = await free();
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ plan: 'free', standing: 'free' });
    expect((await free()).statusCode).toBe(409);
    const lock = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: 'Gate', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    expect(lock.statusCode).toBe(201);
  });
});

describe('upgradeLegacy: a prepaid period', () => {
  it('pays once by card for months of a plan, moving expireDate on', async () => {
    const admin = await portalWithLock();
    const started = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/prepaid',
      token: admin.token,
      payload: { plan: 'business', months: 12 },
    });
    expect(started.statusCode).toBe(201);
    const page = await t.request({ method: 'GET', url: pagePath(started.json().url) });
    expect(page.body).toContain('€84.00'); // 7.00 per lock per month × 1 lock × 12 months
    const paid = await payOnSandbox(t, started.json().url, CARDS.success);
    expect(paid.statusCode).toBe(303);
    const after = await subscription(admin.token);
    expect(after).toMatchObject({ plan: 'business', standing: 'active', billing: 'prepaid', current: true });
    expect(after.stripe.status).toBeNull();
    const months = (Date.parse(after.expireDate!) - Date.now()) / (30.4 * 86_400_000);
    expect(months).toBeGreaterThan(11.8);
    expect(months).toBeLessThan(12.2);

    for (const payload of [{ plan: 'business', months: 2 }, { plan: 'free', months: 1 }, { plan: 'pro' }]) {
      const bad = await t.request({
        method: 'POST',
        url: '/api3/portal/subscription/prepaid',
        token: admin.token,
        payload,
      });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('is refused while a subscription runs', async () => {
    const admin = await portalWithLock();
    await subscribe(admin.token, 'pro');
    const response = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/prepaid',
      token: admin.token,
      payload: { plan: 'pro', months: 1 },
    });
    expect(response.statusCode).toBe(409);
  });
});

describe('webhooks', () => {
  it('refuses a bad signature with 400, changes nothing, and tells staff once', async () => {
    const admin = await portalWithLock();
    const forged = {
      type: 'customer.subscription.updated',
      object: {
        id: 'sub_forged',
        object: 'subscription',
        status: 'active',
        customer: 'cus_forged',
        cancel_at_period_end: false,
        metadata: { portal_id: admin.portalId, plan: 'business' },
        items: { data: [{ quantity: 1, current_period_end: Math.floor(Date.now() / 1000) + 86_400 * 365 }] },
      },
    };
    const before = await t.app.db
      .selectFrom('staff_alerts')
      .select('id')
      .where('kind', '=', 'webhook_signature')
      .execute();
    for (const signature of [`t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`, 'nonsense', '']) {
      const response = await postEvent(t, forged, signature);
      expect(response.statusCode, signature).toBe(400);
    }
    const unsigned = await t.request({
      method: 'POST',
      url: '/api3/payments/webhook',
      headers: { 'content-type': 'application/json' },
      payload: { id: 'evt_x', type: 'invoice.paid', created: 1, data: { object: {} } },
    });
    expect(unsigned.statusCode).toBe(400);
    // An old signature (a captured webhook replayed later) is refused too.
    const body = JSON.stringify({ id: 'evt_old', type: 'invoice.paid', created: 1, data: { object: {} } });
    const { signWebhook } = await import('../src/features/payments/webhook-signature');
    const { sandboxWebhookSecret } = await import('../src/features/payments/payments.plugin');
    const old = signWebhook(
      body,
      sandboxWebhookSecret(t.app.secrets.jwtKey),
      Math.floor(Date.now() / 1000) - 3600,
    );
    expect((await postEvent(t, { type: 'invoice.paid', object: {} }, old)).statusCode).toBe(400);

    expect(await subscription(admin.token)).toMatchObject({
      plan: 'free',
      standing: 'free',
      stripe: { status: null },
    });
    const after = await t.app.db
      .selectFrom('staff_alerts')
      .select('id')
      .where('kind', '=', 'webhook_signature')
      .execute();
    expect(after.length - before.length).toBeLessThanOrEqual(1);
    expect(after.length).toBeGreaterThanOrEqual(1);
  });

  it('handles the same event once', async () => {
    const admin = await portalWithLock();
    await subscribe(admin.token, 'pro');
    const count = async () =>
      (
        await t.app.db
          .selectFrom('audit_log')
          .select('id')
          .where('portal_id', '=', admin.portalId)
          .where('action', '=', 'subscription.paid')
          .execute()
      ).length;
    expect(await count()).toBe(1);
    const again = await redeliver(t, 'invoice.paid');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true, duplicate: true });
    expect(await count()).toBe(1);
  });

  it('applies events in the order the provider made them, whatever order they arrive in', async () => {
    const admin = await portalWithLock();
    await subscribe(admin.token, 'pro');
    const row = await t.app.db
      .selectFrom('subscriptions')
      .selectAll()
      .where('portal_id', '=', admin.portalId)
      .executeTakeFirstOrThrow();
    // The subscription began ten minutes ago; the events below come from the minutes since.
    const began = new Date(Date.now() - 600_000).toISOString();
    await t.app.db
      .updateTable('subscriptions')
      .set({ last_event_at: began })
      .where('id', '=', row.id)
      .execute();
    await t.app.db
      .updateTable('portal_plan_periods')
      .set({ starts_at: began })
      .where('portal_id', '=', admin.portalId)
      .execute();
    const ago = (seconds: number) => Math.floor(Date.now() / 1000) - seconds;
    const state = (status: string, plan: string) => ({
      id: row.provider_subscription_id,
      object: 'subscription',
      status,
      customer: row.provider_customer_id,
      cancel_at_period_end: false,
      metadata: { portal_id: admin.portalId, plan },
      items: { data: [{ quantity: 1, current_period_end: ago(0) + 86_400 * 30 }] },
    });
    const send = async (type: string, object: object, created: number) =>
      expect(
        (await postEvent(t, { type, object: object as Record<string, unknown>, created })).statusCode,
      ).toBe(200);
    // Newer first: business; then an older event saying pro arrives late and changes nothing.
    await send('customer.subscription.updated', state('active', 'business'), ago(300));
    await send('customer.subscription.updated', state('active', 'pro'), ago(400));
    expect((await subscription(admin.token)).plan).toBe('business');
    // An ended subscription does not come back with a late "active".
    await send(
      'customer.subscription.deleted',
      { ...state('canceled', 'business'), cancel_at_period_end: true },
      ago(200),
    );
    await send('customer.subscription.updated', state('active', 'business'), ago(100));
    expect(await subscription(admin.token)).toMatchObject({ plan: 'free', stripe: { status: 'canceled' } });
  });

  it('ignores events about nobody of ours, and raises a staff alert when one cannot be handled', async () => {
    const unknown = await postEvent(t, {
      type: 'customer.subscription.updated',
      object: { id: 'sub_elsewhere', object: 'subscription', status: 'active', metadata: {} },
    });
    expect(unknown.json()).toEqual({ received: true, duplicate: false });
    expect((await postEvent(t, { type: 'charge.refunded', object: { id: 'ch_1' } })).statusCode).toBe(200);

    // A paid order checkout whose amount is not the order's: refused, retried, staff told.
    const admin = await portalWithLock();
    const started = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/prepaid',
      token: admin.token,
      payload: { plan: 'pro', months: 1 },
    });
    const checkout = await t.app.db
      .selectFrom('checkouts')
      .selectAll()
      .where('id', '=', started.json().checkoutId)
      .executeTakeFirstOrThrow();
    await t.app.db
      .updateTable('checkouts')
      .set({ kind: 'order', order_id: crypto.randomUUID() })
      .where('id', '=', checkout.id)
      .execute();
    const eventId = `evt_bad_${crypto.randomUUID()}`;
    const failed = await postEvent(t, {
      id: eventId,
      type: 'checkout.session.completed',
      object: {
        id: checkout.provider_session_id,
        object: 'checkout.session',
        mode: 'payment',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: checkout.id,
        amount_total: 1,
        currency: 'eur',
      },
    });
    expect(failed.statusCode).toBe(500);
    expect(failed.json().error.code).toBe('webhook_failed');
    const alert = await t.app.db
      .selectFrom('staff_alerts')
      .selectAll()
      .where('once_key', 'like', `webhook_failed:%${eventId}`)
      .executeTakeFirst();
    expect(alert?.kind).toBe('webhook_failed');
    // Not marked handled: the provider's retry is handled again (and fails again, told once).
    const retry = await postEvent(t, {
      id: eventId,
      type: 'checkout.session.completed',
      object: {
        id: checkout.provider_session_id,
        client_reference_id: checkout.id,
        payment_status: 'paid',
        amount_total: 1,
      },
    });
    expect(retry.statusCode).toBe(500);
  });

  it('mails every platform staff member about an alert, and lists alerts for staff only', async () => {
    const staff = await t.createSuperAdmin();
    const admin = await portalWithLock();
    await subscribe(admin.token, 'pro', CARDS.declined);
    const mail = await listMailTo(t.app.db, staff.email);
    expect(mail.map((m) => m.template)).toContain('staff_alert');
    const list = await t.request({ method: 'GET', url: '/api3/system/payments/alerts', token: staff.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().items[0]).toMatchObject({ kind: 'payment_failed' });
    expect(
      (await t.request({ method: 'GET', url: '/api3/system/payments/alerts', token: admin.token }))
        .statusCode,
    ).toBe(403);
  });
});

describe('the payments sweep', () => {
  it('ends checkouts nobody finished', async () => {
    const admin = await portalWithLock();
    const started = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/checkout',
      token: admin.token,
      payload: { plan: 'pro' },
    });
    const id = started.json().checkoutId;
    await t.app.db
      .updateTable('checkouts')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', id)
      .execute();
    await sweepPayments(t.app.db, t.app.payments);
    const row = await t.app.db
      .selectFrom('checkouts')
      .select('status')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
    const page = await t.request({ method: 'GET', url: pagePath(started.json().url) });
    expect(page.statusCode).toBe(410);
  });
});

async function sandboxCustomerOf(portalId: string): Promise<string> {
  const row = await t.app.db
    .selectFrom('subscriptions')
    .select('provider_customer_id')
    .where('portal_id', '=', portalId)
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow();
  return row.provider_customer_id!;
}
