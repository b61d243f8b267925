import crypto from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/base/mail/mail.repository';
import { seedCatalogue } from '../src/features/shop/catalogue';
import { CARDS, checkoutOf, payOnSandbox, SHIP_TO } from './sandbox-checkout';
import { TestApp } from './test-app';

// Issue 19, item 2: shopping on one address while the payment pages opened on another, the paid
// items stayed in the cart and could be paid twice. The web app empties the cart once the order is
// paid; the server holds the rest: a paid checkout takes no second payment, the same items ordered
// again by the same email are refused unless the buyer says it is meant, and the success page's
// answer (by the checkout's unguessable id and token, signed out) tells the payer nothing personal.

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({ PAYMENTS_SWEEP_MS: '0' });
  await seedCatalogue(t.app.db);
});
afterAll(() => t.close());

beforeEach(async () => {
  await t.app.db.updateTable('products').set({ stock_reserved: 0, stock_on_hand: 50 }).execute();
});

const address = SHIP_TO;

function order(email: string, items: { productId: string; quantity: number }[], extra: object = {}) {
  return t.request({
    method: 'POST',
    url: '/api3/stripe/order',
    payload: { items, email, address, shippingOption: 'standard', ...extra },
    remoteAddress: `10.9.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
  });
}

const stock = (id: string) =>
  t.app.db
    .selectFrom('products')
    .select(['stock_on_hand', 'stock_reserved'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

const ordersOf = (email: string) =>
  t.app.db.selectFrom('orders').select(['ref', 'status']).where('email', '=', email).execute();

/** An order paid on the sandbox's page; answers what the order call answered. */
async function paidOrder(email: string, items: { productId: string; quantity: number }[]) {
  const created = await order(email, items);
  expect(created.statusCode, created.body).toBe(201);
  const body = created.json<{ orderRef: string; checkoutId: string; token: string; url: string }>();
  const paid = await payOnSandbox(t, body.url, CARDS.success, { email });
  expect(paid.statusCode).toBe(303);
  return body;
}

describe('a cart is paid once', () => {
  it('takes no second payment on a paid checkout: the page says so, stock and mail move once', async () => {
    const email = `once-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { url, checkoutId, token, orderRef } = await paidOrder(email, [
      { productId: 'smart-lock', quantity: 2 },
    ]);
    expect(await stock('smart-lock')).toEqual({ stock_on_hand: 48, stock_reserved: 0 });

    const again = await payOnSandbox(t, url, CARDS.success, { email });
    expect(again.statusCode).toBe(303);
    expect(checkoutOf(again.headers.location as string)).toEqual({ id: checkoutId, token });
    const page = await t.request({ method: 'GET', url: new URL(url).pathname });
    expect(page.body).toContain('Already paid');

    expect(await stock('smart-lock')).toEqual({ stock_on_hand: 48, stock_reserved: 0 });
    expect(await ordersOf(email)).toEqual([{ ref: orderRef, status: 'paid' }]);
    const mails = (await listMailTo(t.app.db, email)).filter((m) => m.template === 'order_confirmation');
    expect(mails).toHaveLength(1);
  });

  it('refuses the same items again from the same email, naming the paid order, and holds nothing', async () => {
    const email = `twice-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const items = [
      { productId: 'wireless-keypad', quantity: 1 },
      { productId: 'smart-lock', quantity: 1 },
    ];
    const { orderRef } = await paidOrder(email, items);
    const before = await stock('wireless-keypad');

    // The same cart, its lines in another order: the same items.
    const twice = await order(email.toUpperCase(), [...items].reverse());
    expect(twice.statusCode).toBe(409);
    expect(twice.json()).toEqual({
      error: {
        code: 'already_paid',
        message: `These items are paid for already: order ${orderRef}. Empty the cart, or order them again if you mean to buy them twice.`,
      },
    });
    expect(await stock('wireless-keypad')).toEqual(before);
    expect(await ordersOf(email)).toEqual([{ ref: orderRef, status: 'paid' }]);

    // Meant: ordered again. Other items, or another buyer, were never asked.
    expect((await order(email, items, { again: true })).statusCode).toBe(201);
    expect((await order(email, [{ productId: 'wireless-keypad', quantity: 2 }])).statusCode).toBe(201);
    expect((await order(`other-${email}`, items)).statusCode).toBe(201);
  });

  it('does not count an order that was not paid', async () => {
    const email = `unpaid-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const items = [{ productId: 'wireless-keypad', quantity: 1 }];
    const first = await order(email, items);
    expect(first.statusCode).toBe(201);
    const declined = await payOnSandbox(t, first.json().url, CARDS.declined, { email });
    expect(declined.statusCode).toBe(402);
    expect((await order(email, items)).statusCode).toBe(201);
  });

  it('shows the outcome signed out by the checkout id and token, with nothing personal', async () => {
    const email = `view-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const { checkoutId, token, orderRef } = await paidOrder(email, [
      { productId: 'smart-lock', quantity: 1 },
    ]);
    const view = await t.request({
      method: 'GET',
      url: `/api3/payments/checkout/${checkoutId}?token=${token}`,
    });
    expect(view.statusCode).toBe(200);
    expect(view.json()).toEqual({
      _id: checkoutId,
      kind: 'order',
      status: 'complete',
      amountTotal: 24900 + 490,
      currency: 'EUR',
      plan: null,
      months: null,
      orderRef,
      createdAt: expect.any(String),
      completedAt: expect.any(String),
    });
    expect(view.body).not.toContain(email);
    expect(view.body).not.toContain('Invalidenstraße');
    // The id alone, or with another token, shows nothing.
    const wrong = await t.request({
      method: 'GET',
      url: `/api3/payments/checkout/${checkoutId}?token=${'x'.repeat(token.length)}`,
    });
    expect(wrong.statusCode).toBe(404);
  });
});
