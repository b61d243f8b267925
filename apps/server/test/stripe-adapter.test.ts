import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PortalSubscription } from '@latchkey/shared';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../src/features/shop/catalogue';
import { signWebhook } from '../src/features/payments/webhook-signature';
import { TestApp } from './test-app';

/**
 * The Stripe adapter against a fake Stripe started here (the SDK takes host, port and protocol):
 * the requests it makes are the ones Stripe documents (form-encoded, idempotency keys on every
 * create), and webhooks signed by the SDK's own test helper drive the portal's standing.
 */

const SECRET_KEY = 'sk_test_latchkeyfake';
const WEBHOOK_SECRET = 'whsec_latchkeyfakesecret';

interface Recorded {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The form body as Stripe reads it: flat keys such as line_items[0][price_data][currency]. */
  form: Record<string, string>;
}

/** A fake Stripe API: just enough of checkout sessions, subscriptions and the billing portal. */
class FakeStripe {
  readonly requests: Recorded[] = [];
  readonly sessions = new Map<string, Record<string, unknown>>();
  readonly subscriptions = new Map<string, Record<string, unknown>>();
  private server = http.createServer((request, response) => this.handle(request, response));
  private counter = 0;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  last(method: string, pathPattern: RegExp): Recorded {
    const found = this.requests.filter((r) => r.method === method && pathPattern.test(r.path)).at(-1);
    if (!found) throw new Error(`no ${method} ${pathPattern} was made`);
    return found;
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse) {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stripe.test');
      const form = Object.fromEntries(new URLSearchParams(body));
      this.requests.push({
        method: request.method ?? '',
        path: url.pathname,
        headers: request.headers,
        form,
      });
      const send = (status: number, json: unknown) =>
        response
          .writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.counter}` })
          .end(JSON.stringify(json));
      if (request.headers.authorization !== `Bearer ${SECRET_KEY}`)
        return send(401, { error: { type: 'invalid_request_error' } });
      const path = url.pathname;
      let match: RegExpExecArray | null;
      if (request.method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${++this.counter}`;
        const session = {
          id,
          object: 'checkout.session',
          mode: form.mode,
          status: 'open',
          payment_status: 'unpaid',
          client_reference_id: form.client_reference_id,
          url: `https://checkout.stripe.test/c/pay/${id}`,
        };
        this.sessions.set(id, session);
        return send(200, session);
      }
      if ((match = /^\/v1\/checkout\/sessions\/([\w]+)(\/expire)?$/.exec(path))) {
        const session = this.sessions.get(match[1]!);
        if (!session)
          return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
        if (match[2] && request.method === 'POST' && session.status === 'open') session.status = 'expired';
        return send(200, session);
      }
      if ((match = /^\/v1\/subscriptions\/([\w]+)$/.exec(path))) {
        const subscription = this.subscriptions.get(match[1]!);
        if (!subscription)
          return send(404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
        if (request.method === 'POST' && form.cancel_at_period_end) {
          subscription.cancel_at_period_end = form.cancel_at_period_end === 'true';
        }
        return send(200, subscription);
      }
      if (request.method === 'POST' && path === '/v1/billing_portal/sessions') {
        return send(200, {
          id: 'bps_1',
          object: 'billing_portal.session',
          url: 'https://billing.stripe.test/p/session/bps_1',
        });
      }
      return send(404, {
        error: { type: 'invalid_request_error', message: `no fake for ${request.method} ${path}` },
      });
    });
  }
}

let fake: FakeStripe;
let t: TestApp;
const stripe = new Stripe(SECRET_KEY);

beforeAll(async () => {
  fake = new FakeStripe();
  const apiUrl = await fake.start();
  t = await TestApp.start({
    LOGIN_LIMIT_PER_IP: '1000',
    PAYMENTS_SWEEP_MS: '0',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: apiUrl,
    PUBLIC_URL: 'https://portal.example.com',
  });
  await seedCatalogue(t.app.db);
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

/** A webhook as Stripe sends it, signed with the SDK's test helper. */
function webhook(type: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)) {
  const payload = JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created,
    type,
    data: { object },
  });
  return t.request({
    method: 'POST',
    url: '/api3/payments/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
    payload,
  });
}

const subscriptionOf = async (token: string) =>
  (await t.request({ method: 'GET', url: '/api3/portal/subscription', token })).json<PortalSubscription>();

async function portalWithLocks(count: number) {
  const admin = await t.signUp();
  for (let i = 0; i < count; i++) {
    await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: `Door ${i + 1}`, model: 'latchkey-sim', timeZone: 'UTC' },
    });
  }
  return admin;
}

/** A Stripe subscription object, as its events carry it. */
function stripeSubscription(
  id: string,
  portalId: string,
  fields: { status: string; plan?: string; periodEnd?: number; cancelAtPeriodEnd?: boolean; reason?: string },
) {
  const subscription = {
    id,
    object: 'subscription',
    customer: 'cus_fake_1',
    status: fields.status,
    cancel_at_period_end: fields.cancelAtPeriodEnd ?? false,
    cancellation_details: { reason: fields.reason ?? null },
    metadata: { portal_id: portalId, plan: fields.plan ?? 'pro' },
    items: {
      object: 'list',
      data: [
        {
          id: `si_${id}`,
          object: 'subscription_item',
          quantity: 3,
          current_period_end: fields.periodEnd ?? Math.floor(Date.now() / 1000) + 30 * 86_400,
          price: { id: 'price_1', unit_amount: 400, currency: 'eur', product: 'prod_plan' },
        },
      ],
    },
  };
  fake.subscriptions.set(id, subscription);
  return subscription;
}

describe('the Stripe adapter', () => {
  it('creates a subscription-mode checkout session with the documented body and an idempotency key', async () => {
    const admin = await portalWithLocks(3);
    const started = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/checkout',
      token: admin.token,
      payload: { plan: 'pro' },
    });
    expect(started.statusCode, started.body).toBe(201);
    const { checkoutId, url } = started.json();
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);

    const request = fake.last('POST', /^\/v1\/checkout\/sessions$/);
    expect(request.headers['idempotency-key']).toBe(`checkout-${checkoutId}`);
    expect(request.headers['stripe-version']).toBeTruthy();
    expect(request.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(request.form).toMatchObject({
      mode: 'subscription',
      client_reference_id: checkoutId,
      customer_email: admin.email,
      'line_items[0][quantity]': '3',
      'line_items[0][price_data][currency]': 'eur',
      'line_items[0][price_data][unit_amount]': '400',
      'line_items[0][price_data][recurring][interval]': 'month',
      'line_items[0][price_data][product_data][name]': 'Latchkey plan (per lock per month)',
      'metadata[portal_id]': admin.portalId,
      'metadata[plan]': 'pro',
      'subscription_data[metadata][portal_id]': admin.portalId,
      'subscription_data[metadata][plan]': 'pro',
    });
    expect(request.form.success_url).toMatch(/^https:\/\/portal\.example\.com\/success\?checkout=/);
    expect(request.form.cancel_url).toMatch(/^https:\/\/portal\.example\.com\/canceled\?checkout=/);
    expect(Number(request.form.expires_at)).toBeGreaterThan(Date.now() / 1000 + 29 * 60);
    // No card data in anything sent.
    // The card number as a card is written (the requests hold random ports and ids, which can hold
    // "4242" by chance: seen once in a host header at port 42429).
    expect(JSON.stringify(fake.requests)).not.toMatch(/4242[ -]?4242/);
  });

  it('creates a payment-mode session for a shop order: each product, shipping, the order in the metadata', async () => {
    const created = await t.request({
      method: 'POST',
      url: '/api3/stripe/order',
      payload: {
        items: [
          { productId: 'smart-lock', quantity: 2 },
          { productId: 'rfid-cards-10', quantity: 1 },
        ],
        email: 'buyer@example.com',
        address: { name: 'Pat', line1: 'Street 1', postalCode: '10115', city: 'Berlin', country: 'DE' },
        shippingOption: 'express',
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const request = fake.last('POST', /^\/v1\/checkout\/sessions$/);
    expect(request.headers['idempotency-key']).toBe(`checkout-${created.json().checkoutId}`);
    expect(request.form).toMatchObject({
      mode: 'payment',
      customer_email: 'buyer@example.com',
      'line_items[0][quantity]': '2',
      'line_items[0][price_data][unit_amount]': '24900',
      'line_items[0][price_data][product_data][name]': 'Latchkey Smart Lock',
      'line_items[1][quantity]': '1',
      'line_items[1][price_data][unit_amount]': '2900',
      'shipping_options[0][shipping_rate_data][type]': 'fixed_amount',
      'shipping_options[0][shipping_rate_data][display_name]': 'Express delivery',
      'shipping_options[0][shipping_rate_data][fixed_amount][amount]': '1290',
      'shipping_options[0][shipping_rate_data][fixed_amount][currency]': 'eur',
      'shipping_options[0][shipping_rate_data][delivery_estimate][minimum][unit]': 'business_day',
      'metadata[order_ref]': created.json().orderRef,
      'payment_intent_data[metadata][order_ref]': created.json().orderRef,
    });
    expect(request.form['line_items[0][price_data][recurring][interval]']).toBeUndefined();

    // Paid: Stripe's checkout.session.completed with the total it charged.
    const sessionId = created.json().url.split('/').pop();
    expect(fake.sessions.get(sessionId)).toMatchObject({ mode: 'payment', status: 'open' });
    const paid = await webhook('checkout.session.completed', {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      status: 'complete',
      payment_status: 'paid',
      client_reference_id: created.json().checkoutId,
      amount_total: 2 * 24900 + 2900 + 1290,
      currency: 'eur',
      payment_intent: 'pi_fake_1',
    });
    expect(paid.statusCode, paid.body).toBe(200);
    const order = await t.app.db
      .selectFrom('orders')
      .selectAll()
      .where('ref', '=', created.json().orderRef)
      .executeTakeFirstOrThrow();
    expect(order.status).toBe('paid');
  });

  it('makes the portal current on an active subscription, and not after expireDate once past due or canceled', async () => {
    const admin = await portalWithLocks(1);
    const started = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/checkout',
      token: admin.token,
      payload: { plan: 'pro' },
    });
    const sessionId = started.json().url.split('/').pop();
    const subscriptionId = `sub_${crypto.randomUUID().slice(0, 8)}`;
    const now = Math.floor(Date.now() / 1000);
    // Stripe's order: the subscription (incomplete), its paid invoice, the subscription active, the session.
    await webhook(
      'customer.subscription.created',
      stripeSubscription(subscriptionId, admin.portalId, { status: 'incomplete' }),
      now - 5,
    );
    expect(await subscriptionOf(admin.token)).toMatchObject({
      plan: 'free',
      standing: 'free',
      current: false,
    });
    await webhook(
      'invoice.paid',
      {
        id: 'in_1',
        object: 'invoice',
        customer: 'cus_fake_1',
        amount_paid: 400,
        currency: 'eur',
        lines: { object: 'list', data: [{ period: { start: now, end: now + 30 * 86_400 } }] },
        parent: {
          type: 'subscription_details',
          subscription_details: {
            subscription: subscriptionId,
            metadata: { portal_id: admin.portalId, plan: 'pro' },
          },
        },
      },
      now - 4,
    );
    await webhook(
      'customer.subscription.updated',
      stripeSubscription(subscriptionId, admin.portalId, { status: 'active' }),
      now - 3,
    );
    const completed = await webhook(
      'checkout.session.completed',
      {
        id: sessionId,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: started.json().checkoutId,
        customer: 'cus_fake_1',
        subscription: subscriptionId,
        amount_total: 400,
        currency: 'eur',
      },
      now - 2,
    );
    expect(completed.statusCode).toBe(200);
    const active = await subscriptionOf(admin.token);
    expect(active).toMatchObject({
      plan: 'pro',
      standing: 'active',
      current: true,
      stripe: { status: 'active' },
      canManageCard: true,
    });

    // past_due: current only until expireDate (the period paid for and the grace days).
    await webhook(
      'customer.subscription.updated',
      stripeSubscription(subscriptionId, admin.portalId, { status: 'past_due' }),
      now - 1,
    );
    expect(await subscriptionOf(admin.token)).toMatchObject({ standing: 'past_due', current: true });
    await t.app.db
      .updateTable('portals')
      .set({ expire_date: new Date(Date.now() - 60_000).toISOString() })
      .where('id', '=', admin.portalId)
      .execute();
    expect(await subscriptionOf(admin.token)).toMatchObject({ standing: 'lapsed', current: false });
    const session = (await t.request({ method: 'GET', url: '/api3/auth', token: admin.token })).json();
    expect(session.portal).toMatchObject({ current: false, stripe: { status: 'past_due' } });

    // canceled by Stripe for non-payment: still not current, the plan stays (lapsed).
    await webhook(
      'customer.subscription.deleted',
      stripeSubscription(subscriptionId, admin.portalId, { status: 'canceled', reason: 'payment_failed' }),
      now,
    );
    expect(await subscriptionOf(admin.token)).toMatchObject({
      plan: 'pro',
      standing: 'lapsed',
      current: false,
      stripe: { status: 'canceled' },
    });
  });

  it('cancels at period end, changes the plan and opens the customer portal with idempotency keys', async () => {
    const admin = await portalWithLocks(1);
    const subscriptionId = `sub_${crypto.randomUUID().slice(0, 8)}`;
    await webhook(
      'customer.subscription.created',
      stripeSubscription(subscriptionId, admin.portalId, { status: 'active' }),
    );
    expect((await subscriptionOf(admin.token)).standing).toBe('active');

    const canceled = await t.request({ method: 'DELETE', url: '/api3/stripe/cancel', token: admin.token });
    expect(canceled.statusCode).toBe(200);
    const cancel = fake.last('POST', new RegExp(`^/v1/subscriptions/${subscriptionId}$`));
    expect(cancel.form).toEqual({ cancel_at_period_end: 'true' });
    expect(cancel.headers['idempotency-key']).toMatch(new RegExp(`^cancel-${subscriptionId}-true-`));
    // The portal changes when Stripe says so.
    await webhook(
      'customer.subscription.updated',
      stripeSubscription(subscriptionId, admin.portalId, { status: 'active', cancelAtPeriodEnd: true }),
      Math.floor(Date.now() / 1000) + 1,
    );
    expect((await subscriptionOf(admin.token)).standing).toBe('canceling');

    const changed = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/plan',
      token: admin.token,
      payload: { plan: 'business' },
    });
    expect(changed.statusCode).toBe(200);
    const update = fake.last('POST', new RegExp(`^/v1/subscriptions/${subscriptionId}$`));
    expect(update.form).toMatchObject({
      'items[0][id]': `si_${subscriptionId}`,
      'items[0][price_data][currency]': 'eur',
      'items[0][price_data][product]': 'prod_plan',
      'items[0][price_data][unit_amount]': '700',
      'items[0][price_data][recurring][interval]': 'month',
      proration_behavior: 'create_prorations',
      'metadata[plan]': 'business',
    });
    expect(update.headers['idempotency-key']).toMatch(/^plan-/);

    const card = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/card',
      token: admin.token,
    });
    expect(card.json()).toEqual({ url: 'https://billing.stripe.test/p/session/bps_1' });
    const portal = fake.last('POST', /^\/v1\/billing_portal\/sessions$/);
    expect(portal.form).toEqual({
      customer: 'cus_fake_1',
      return_url: 'https://portal.example.com/app/upgrade',
    });
    expect(portal.headers['idempotency-key']).toMatch(/^card-cus_fake_1-/);
  });

  it('refuses webhooks Stripe did not sign, and a sandbox-signed body verifies with the SDK', async () => {
    const payload = JSON.stringify({
      id: 'evt_forged',
      object: 'event',
      created: Math.floor(Date.now() / 1000),
      type: 'invoice.paid',
      data: { object: {} },
    });
    const forged = await t.request({
      method: 'POST',
      url: '/api3/payments/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripe.webhooks.generateTestHeaderString({
          payload,
          secret: 'whsec_someoneelse',
        }),
      },
      payload,
    });
    expect(forged.statusCode).toBe(400);
    // The sandbox signs exactly as Stripe does: the SDK's constructEvent accepts its signature.
    const event = stripe.webhooks.constructEvent(
      payload,
      signWebhook(payload, WEBHOOK_SECRET),
      WEBHOOK_SECRET,
    );
    expect(event.id).toBe('evt_forged');
  });

  it('ends a checkout at Stripe when the buyer turns back', async () => {
    const admin = await portalWithLocks(1);
    const started = await t.request({
      method: 'POST',
      url: '/api3/portal/subscription/prepaid',
      token: admin.token,
      payload: { plan: 'pro', months: 3 },
    });
    expect(started.statusCode).toBe(201);
    const body = fake.last('POST', /^\/v1\/checkout\/sessions$/).form;
    expect(body).toMatchObject({
      mode: 'payment',
      'line_items[0][price_data][unit_amount]': '1200',
      'line_items[0][quantity]': '1',
    });
    const cancelUrl = new URL(body.cancel_url!);
    const canceled = await t.request({
      method: 'POST',
      url: `/api3/payments/checkout/${cancelUrl.searchParams.get('checkout')}/cancel`,
      payload: { token: cancelUrl.searchParams.get('token') },
    });
    expect(canceled.json()).toMatchObject({ status: 'canceled' });
    const sessionId = started.json().url.split('/').pop();
    const expire = fake.last('POST', new RegExp(`^/v1/checkout/sessions/${sessionId}/expire$`));
    expect(expire.headers['idempotency-key']).toBe(`expire-${sessionId}`);
  });
});
