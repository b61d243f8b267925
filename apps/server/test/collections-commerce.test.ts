import crypto from 'node:crypto';
import type { OrderView } from '@latchkey/shared';
import { PLANS } from '@latchkey/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedCatalogue } from '../src/features/shop/catalogue';
import { makeOwner } from './factories';
import { CARDS, orderBody, payOnSandbox } from './sandbox-checkout';
import { TestApp } from './test-app';

/**
 * The commerce and content collections (issue 21, item 3) with real records: an order placed and
 * paid through the sandbox is read back through orderView and orderRef by its buyer only, and the
 * catalogue, the plans' prices, the published pages and the hidden navigation entries answer what
 * their features' own routes answer. The registry-driven specs walk every collection's refusals;
 * these are the successes they cannot reach (the fixtures hold no order).
 */

let t: TestApp;
let buyer: Awaited<ReturnType<typeof makeOwner>>;
let other: Awaited<ReturnType<typeof makeOwner>>;
let ref: string;

beforeAll(async () => {
  t = await TestApp.start({
    LOGIN_LIMIT_PER_IP: '1000',
    SIGNUP_LIMIT_PER_IP: '1000',
    PAYMENTS_SWEEP_MS: '0',
  });
  await seedCatalogue(t.app.db);
  buyer = await makeOwner(t);
  other = await makeOwner(t);
  const created = await t.request({
    method: 'POST',
    url: '/api3/stripe/order',
    token: buyer.token,
    remoteAddress: `10.2.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
    payload: orderBody([{ productId: 'wireless-keypad', quantity: 1 }], buyer.email),
  });
  expect(created.statusCode, created.body).toBe(201);
  ref = created.json().orderRef;
  await payOnSandbox(t, created.json().url, CARDS.success);
});
afterAll(() => t.close());

const call = (url: string, token: string, payload: object = {}) =>
  t.request({ method: 'POST', url: `/api3/${url}`, token, payload });

describe('orderView and orderRef', () => {
  it("list the buyer's paid order in the portal it was bought in, by id and by reference in any case", async () => {
    const page = await call('orderView', buyer.token);
    expect(page.statusCode, page.body).toBe(200);
    const [order] = page.json<{ items: OrderView[]; total: number }>().items;
    expect(order).toMatchObject({ ref, status: 'paid', portal: { _id: buyer.portalId } });
    const one = await t.request({ method: 'GET', url: `/api3/orderView/${order!._id}`, token: buyer.token });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toMatchObject({ _id: order!._id, ref });

    const byRef = await call('orderRef', buyer.token, { ref: ref.toLowerCase() });
    expect(byRef.json()).toMatchObject({ total: 1, items: [{ _id: order!._id, ref }] });
    expect((await call('orderRef', buyer.token, { ref: 'LK-NO-SUCH-REF' })).json()).toEqual({
      items: [],
      total: 0,
    });
  });

  it('show another portal nothing of it, whatever the id or reference', async () => {
    const [order] = (await call('orderView', buyer.token)).json<{ items: OrderView[] }>().items;
    expect((await call('orderView', other.token)).json()).toEqual({ items: [], total: 0 });
    expect((await call('orderRef', other.token, { ref })).json()).toEqual({ items: [], total: 0 });
    const read = await t.request({ method: 'GET', url: `/api3/orderView/${order!._id}`, token: other.token });
    expect(read.statusCode).toBe(404);
    expect(read.body).not.toContain(ref);
  });
});

describe('product, prices, info and nav', () => {
  it('answer what the features’ own routes answer', async () => {
    const products = (await t.request({ method: 'GET', url: '/api3/product' })).json<{ _id: string }[]>();
    const page = (await call('product', buyer.token)).json<{ items: { _id: string }[]; total: number }>();
    expect(page.items.map((p) => p._id)).toEqual(products.map((p) => p._id));

    const prices = (await call('prices', buyer.token)).json<{ items: { _id: string }[] }>();
    expect(prices.items.map((p) => p._id).sort()).toEqual(Object.keys(PLANS).sort());

    const pages = (await call('info', buyer.token)).json<{ items: { topic: string }[]; total: number }>();
    expect(pages.total).toBe(pages.items.length);
    expect(pages.total).toBeGreaterThan(0); // the pages every installation starts with (privacy, terms…)
    for (const item of pages.items) {
      expect((await t.request({ method: 'GET', url: `/api3/info/${item.topic}` })).statusCode).toBe(200);
    }

    const nav = await call('nav', buyer.token);
    expect(nav.statusCode, nav.body).toBe(200);
    expect(nav.json().items).toEqual(expect.any(Array));
  });
});
