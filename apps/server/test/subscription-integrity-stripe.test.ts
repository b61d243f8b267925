import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PortalSubscription } from '@latchkey/shared';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentPlan } from '../src/features/billing/plan-history';
import { TestApp } from './test-app';

/**
 * Issue 16, defects 6 and 7 with Stripe (against a fake Stripe, as stripe-adapter.test.ts): when
 * two plan checkouts were both paid, the earlier subscription is canceled now at Stripe with
 * proration (today's main leaves both running and charging); a running subscription's quantity is
 * set to the lock count when a lock is added, prorated (today's main never tells Stripe).
 */

const SECRET_KEY = 'sk_test_latchkeyintegrity';
const WEBHOOK_SECRET = 'whsec_latchkeyintegritysecret';

interface Recorded {
  method: string;
  path: string;
  /** Form body and query string, as Stripe reads them (flat keys such as items[0][quantity]). */
  params: Record<string, string>;
}

/** Just enough of Stripe: checkout sessions (with expire), subscriptions (retrieve, update, cancel). */
class FakeStripe {
  readonly requests: Recorded[] = [];
  readonly sessions = new Map<string, Record<string, unknown>>();
  readonly subscriptions = new Map<string, { status: string; quantity: number }>();
  private server = http.createServer((request, response) => this.handle(request, response));
  private counter = 0;

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  made(method: string, path: string): Recorded[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  private subscriptionObject(id: string) {
    const subscription = this.subscriptions.get(id)!;
    return {
      id,
      object: 'subscription',
      status: subscription.status,
      items: {
        object: 'list',
        data: [{ id: `si_${id}`, object: 'subscription_item', quantity: subscription.quantity }],
      },
    };
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse) {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://stripe.test');
      const params = {
        ...Object.fromEntries(url.searchParams),
        ...Object.fromEntries(new URLSearchParams(body)),
      };
      const method = request.method ?? '';
      const path = url.pathname;
      this.requests.push({ method, path, params });
      const send = (status: number, json: unknown) =>
        response
          .writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.counter}` })
          .end(JSON.stringify(json));
      const missing = () => send(404, { error: { type: 'invalid_request_error', code: 'resource_missing' } });
      let match: RegExpExecArray | null;
      if (method === 'POST' && path === '/v1/checkout/sessions') {
        const id = `cs_test_${++this.counter}`;
        const session = {
          id,
          object: 'checkout.session',
          status: 'open',
          client_reference_id: params.client_reference_id,
          url: `https://checkout.stripe.test/c/pay/${id}`,
        };
        this.sessions.set(id, session);
        return send(200, session);
      }
      if ((match = /^\/v1\/checkout\/sessions\/(\w+)(\/expire)?$/.exec(path))) {
        const session = this.sessions.get(match[1]!);
        if (!session) return missing();
        if (match[2] && session.status === 'open') session.status = 'expired';
        return send(200, session);
      }
      if ((match = /^\/v1\/subscriptions\/(\w+)$/.exec(path))) {
        const id = match[1]!;
        const subscription = this.subscriptions.get(id);
        if (!subscription) return missing();
        if (method === 'DELETE') subscription.status = 'canceled';
        if (method === 'POST' && params['items[0][quantity]']) {
          subscription.quantity = Number(params['items[0][quantity]']);
        }
        return send(200, this.subscriptionObject(id));
      }
      return send(404, {
        error: { type: 'invalid_request_error', message: `no fake for ${method} ${path}` },
      });
    });
  }
}

let fake: FakeStripe;
let t: TestApp;
const stripe = new Stripe(SECRET_KEY);

beforeAll(async () => {
  fake = new FakeStripe();
  t = await TestApp.start({
    LOGIN_LIMIT_PER_IP: '1000',
    PAYMENTS_SWEEP_MS: '0',
    STRIPE_SECRET_KEY: SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: await fake.start(),
    PUBLIC_URL: 'https://portal.example.com',
    PLAN_LOCK_LIMITS: 'true',
  });
});
afterAll(async () => {
  await t.close();
  await fake.stop();
});

/** Event times: an hour ago, a second apart (plan changes land at them, so none is ahead of now). */
let clock = Math.floor(Date.now() / 1000) - 3600;
/** A webhook as Stripe sends it, each a second after the one before. */
async function webhook(type: string, object: Record<string, unknown>) {
  const payload = JSON.stringify({
    id: `evt_${crypto.randomUUID().replaceAll('-', '')}`,
    object: 'event',
    created: ++clock,
    type,
    data: { object },
  });
  const response = await t.request({
    method: 'POST',
    url: '/api3/payments/webhook',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    },
    payload,
  });
  expect(response.statusCode, response.body).toBe(200);
}

function subscriptionEvent(id: string, portalId: string, plan: string, status: string, quantity = 1) {
  return {
    id,
    object: 'subscription',
    customer: `cus_${id}`,
    status,
    cancel_at_period_end: false,
    cancellation_details: { reason: status === 'canceled' ? 'cancellation_requested' : null },
    metadata: { portal_id: portalId, plan },
    items: {
      object: 'list',
      data: [
        {
          id: `si_${id}`,
          object: 'subscription_item',
          quantity,
          current_period_end: clock + 30 * 86_400,
          price: { id: 'price_1', unit_amount: 400, currency: 'eur', product: 'prod_plan' },
        },
      ],
    },
  };
}

/** Stripe's word that a plan checkout was paid: the session, its subscription and first invoice. */
async function paid(checkout: { sessionId: string; checkoutId: string }, portalId: string, plan: string) {
  const subscriptionId = `sub_${plan}_${crypto.randomBytes(4).toString('hex')}`;
  fake.subscriptions.set(subscriptionId, { status: 'active', quantity: 1 });
  await webhook('customer.subscription.created', subscriptionEvent(subscriptionId, portalId, plan, 'active'));
  await webhook('checkout.session.completed', {
    id: checkout.sessionId,
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: checkout.checkoutId,
    customer: `cus_${subscriptionId}`,
    subscription: subscriptionId,
    metadata: { portal_id: portalId, plan },
  });
  await webhook('invoice.paid', {
    id: `in_${subscriptionId}`,
    object: 'invoice',
    customer: `cus_${subscriptionId}`,
    amount_paid: 400,
    currency: 'eur',
    lines: { object: 'list', data: [{ period: { start: clock, end: clock + 30 * 86_400 } }] },
    parent: {
      type: 'subscription_details',
      subscription_details: { subscription: subscriptionId, metadata: { portal_id: portalId, plan } },
    },
  });
  return subscriptionId;
}

describe('with Stripe', () => {
  it('a second paid plan checkout replaces the first: canceled now with proration, one runs, cancel ends it', async () => {
    const admin = await t.signUp();
    const lock = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: 'Front door', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    expect(lock.statusCode).toBe(201);
    const open = async (plan: string) => {
      const response = await t.request({
        method: 'POST',
        url: '/api3/portal/subscription/checkout',
        token: admin.token,
        payload: { plan },
      });
      expect(response.statusCode, response.body).toBe(201);
      const { checkoutId } = response.json<{ checkoutId: string }>();
      const row = await t.app.db
        .selectFrom('checkouts')
        .select('provider_session_id')
        .where('id', '=', checkoutId)
        .executeTakeFirstOrThrow();
      return { checkoutId, sessionId: row.provider_session_id! };
    };

    const pro = await open('pro');
    // Paid on Stripe's page just before the second checkout opened; its webhooks are on the way.
    fake.sessions.get(pro.sessionId)!.status = 'complete';
    const business = await open('business');
    // Opening it ended the first at Stripe, which answered that it was paid (so it stays paid).
    expect(fake.made('GET', `/v1/checkout/sessions/${pro.sessionId}`)).toHaveLength(1);

    const first = await paid(pro, admin.portalId, 'pro');
    expect(fake.made('DELETE', `/v1/subscriptions/${first}`)).toEqual([]);
    const second = await paid(business, admin.portalId, 'business');

    // The earlier subscription is canceled at Stripe now, prorated and invoiced at once.
    const cancels = fake.made('DELETE', `/v1/subscriptions/${first}`);
    expect(cancels.length).toBeGreaterThanOrEqual(1);
    expect(cancels[0]!.params).toMatchObject({ prorate: 'true', invoice_now: 'true' });
    expect(fake.made('DELETE', `/v1/subscriptions/${second}`)).toEqual([]);
    await webhook(
      'customer.subscription.deleted',
      subscriptionEvent(first, admin.portalId, 'pro', 'canceled'),
    );

    const live = await t.app.db
      .selectFrom('subscriptions')
      .select(['provider_subscription_id', 'status', 'plan'])
      .where('portal_id', '=', admin.portalId)
      .where('status', '=', 'active')
      .execute();
    expect(live).toEqual([{ provider_subscription_id: second, status: 'active', plan: 'business' }]);
    const standing = (
      await t.request({ method: 'GET', url: '/api3/portal/subscription', token: admin.token })
    ).json<PortalSubscription>();
    expect(standing).toMatchObject({ plan: 'business', standing: 'active', current: true });
    expect(await currentPlan(t.app.db, admin.portalId)).toBe('business');
    const lapseAlerts = await t.app.db
      .selectFrom('staff_alerts')
      .select('kind')
      .where('portal_id', '=', admin.portalId)
      .where('kind', '=', 'subscription_lapsed')
      .execute();
    expect(lapseAlerts).toEqual([]);

    // Its quantity follows the locks: a second lock sets it to 2 at Stripe, prorated.
    const another = await t.request({
      method: 'POST',
      url: '/api3/portal/device/new',
      token: admin.token,
      payload: { name: 'Back door', model: 'latchkey-sim', timeZone: 'UTC' },
    });
    expect(another.statusCode).toBe(201);
    const update = fake.made('POST', `/v1/subscriptions/${second}`).at(-1);
    expect(update?.params).toMatchObject({
      'items[0][id]': `si_${second}`,
      'items[0][quantity]': '2',
      proration_behavior: 'create_prorations',
    });
    expect(fake.subscriptions.get(second)).toEqual({ status: 'active', quantity: 2 });

    // DELETE stripe/cancel reaches the one subscription that runs.
    const canceled = await t.request({ method: 'DELETE', url: '/api3/stripe/cancel', token: admin.token });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(fake.made('POST', `/v1/subscriptions/${second}`).at(-1)!.params).toMatchObject({
      cancel_at_period_end: 'true',
    });
  });
});
