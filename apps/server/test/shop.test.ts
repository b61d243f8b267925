import crypto from 'node:crypto';
import { LOCK_MODELS, type OrderView, type Product, type Quote } from '@latchkey/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { listMailTo } from '../src/base/mail/mail.repository';
import { sweepPayments } from '../src/features/payments/payments.service';
import { seedCatalogue } from '../src/features/shop/catalogue';
import { CARDS, checkoutOf, payOnSandbox, SHIP_TO } from './sandbox-checkout';
import { TestApp } from './test-app';

/**
 * The hardware shop end to end with the sandbox provider: the catalogue, server-side prices, stock
 * held while paying and released when not, the confirmation mail, pre-registered locks, and who
 * sees which orders.
 */

let t: TestApp;
beforeAll(async () => {
  t = await TestApp.start({
    LOGIN_LIMIT_PER_IP: '1000',
    SIGNUP_LIMIT_PER_IP: '1000',
    PAYMENTS_SWEEP_MS: '0',
  });
  await seedCatalogue(t.app.db);
});
afterAll(() => t.close());

const address = SHIP_TO;
const product = async (id: string) =>
  (await t.request({ method: 'GET', url: `/api3/product/${id}` })).json<Product>();
const order = (payload: object, token?: string) =>
  t.request({
    method: 'POST',
    url: '/api3/stripe/order',
    token,
    payload,
    // Each test buys from its own address (orders are limited per address).
    remoteAddress: `10.1.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`,
  });
const anOrder = (extra: object = {}) => ({
  items: [{ productId: 'wireless-keypad', quantity: 2 }],
  email: 'pat@example.com',
  address,
  shippingOption: 'standard',
  ...extra,
});

beforeEach(async () => {
  // Every test starts with the catalogue's stock and nothing held.
  await t.app.db.updateTable('products').set({ stock_reserved: 0 }).execute();
  await seedCatalogue(t.app.db);
  await t.app.db.updateTable('products').set({ stock_on_hand: 3 }).where('id', '=', 'code-lock').execute();
  await t.app.db
    .updateTable('products')
    .set({ stock_on_hand: 60 })
    .where('id', '=', 'wireless-keypad')
    .execute();
  await t.app.db.updateTable('products').set({ stock_on_hand: 40 }).where('id', '=', 'smart-lock').execute();
});

describe('the catalogue', () => {
  it('lists the products on sale with prices, pictures and stock, to anyone', async () => {
    const list = await t.request({ method: 'GET', url: '/api3/product' });
    expect(list.statusCode).toBe(200);
    const products = list.json<Product[]>();
    expect(products.map((p) => p._id)).toContain('smart-lock');
    expect(products.find((p) => p._id === 'smart-lock')).toMatchObject({
      price: 24900,
      currency: 'EUR',
      image: '/shop/smart-lock.svg',
      preRegisters: true,
      available: 40,
    });
    expect(await product('rfid-cards-10')).toMatchObject({ packSize: 10, preRegisters: false });
    // The code lock's text says what the portal accepts for its model (LOCK_MODELS), no other figures.
    const { codeLength, capacity } = LOCK_MODELS['generic-codelock'];
    expect((await product('code-lock')).description).toContain(
      `up to ${capacity} codes of ${codeLength.min} to ${codeLength.max} digits`,
    );
    expect((await t.request({ method: 'GET', url: '/api3/product/no-such-thing' })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/api3/product/a%20b' })).statusCode).toBe(400);
  });
});

describe('quotes', () => {
  it("prices the cart from the server's catalogue, whatever the client says a price is", async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api3/shop/quote',
      payload: {
        items: [
          { productId: 'smart-lock', quantity: 2, price: 1, unitPrice: 1 },
          { productId: 'gone', quantity: 1 },
        ],
        country: 'FR',
        shippingOption: 'express',
        total: 0,
      },
    });
    expect(response.statusCode).toBe(200);
    const quote = response.json<Quote>();
    expect(quote.lines).toEqual([
      expect.objectContaining({ productId: 'smart-lock', unitPrice: 24900, lineTotal: 49800 }),
    ]);
    expect(quote.unknownProductIds).toEqual(['gone']);
    expect(quote.shippingOptions.map((option) => option.id)).toEqual(['standard', 'express']);
    expect(quote).toMatchObject({ subtotal: 49800, shipping: 2490, total: 52290, currency: 'EUR' });
    // Pick-up is for Germany only.
    const de = (
      await t.request({
        method: 'POST',
        url: '/api3/shop/quote',
        payload: { items: [{ productId: 'smart-lock', quantity: 1 }], country: 'DE' },
      })
    ).json<Quote>();
    expect(de.shippingOptions.map((option) => option.id)).toEqual(['pickup', 'standard', 'express']);
  });

  it('refuses carts that are no carts', async () => {
    for (const payload of [
      { items: [] },
      { items: [{ productId: 'smart-lock', quantity: 0 }] },
      { items: [{ productId: 'smart-lock', quantity: 51 }] },
      { items: [{ productId: 'smart-lock', quantity: 1.5 }] },
      {
        items: [
          { productId: 'smart-lock', quantity: 1 },
          { productId: 'smart-lock', quantity: 2 },
        ],
      },
      { items: [{ productId: 'smart-lock', quantity: 1 }], country: 'XX' },
    ]) {
      const response = await t.request({ method: 'POST', url: '/api3/shop/quote', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });
});

describe('POST stripe/order', () => {
  it('checks the address for its country, the shipping for the country, and the products', async () => {
    const cases: [object, string][] = [
      [{ address: { ...address, postalCode: '1011' } }, 'body.address.postalCode'],
      [{ address: { ...address, country: 'NL', postalCode: '10115' } }, 'body.address.postalCode'],
      [{ address: { ...address, country: 'US', postalCode: '10001', region: '' } }, 'body.address.region'],
      [{ address: { ...address, name: '' } }, 'body.address.name'],
      [{ address: { ...address, phone: 'call me' } }, 'body.address.phone'],
      [{ email: 'not-an-email' }, 'body.email'],
      [
        { address: { ...address, country: 'FR', postalCode: '75001' }, shippingOption: 'pickup' },
        'body.shippingOption',
      ],
      [{ items: [{ productId: 'unobtainium', quantity: 1 }] }, 'body.items.0.productId'],
    ];
    for (const [change, path] of cases) {
      const response = await order(anOrder(change));
      expect(response.statusCode, JSON.stringify(change)).toBe(400);
      expect(
        response.json().error.details.map((d: { path: string }) => d.path),
        JSON.stringify(change),
      ).toContain(path);
    }
    // Accepted forms: a Dutch postcode typed in lower case, a US address with its state.
    const dutch = await order(anOrder({ address: { ...address, country: 'NL', postalCode: '1012ab' } }));
    expect(dutch.statusCode).toBe(201);
    const us = await order(
      anOrder({ address: { ...address, country: 'US', postalCode: '10001', region: 'ny' } }),
    );
    expect(us.statusCode).toBe(201);
    expect((await product('wireless-keypad')).available).toBe(56);
  });

  it("charges the server's prices, holds the stock, and on payment takes it and mails the buyer", async () => {
    const created = await order(
      anOrder({
        items: [
          { productId: 'smart-lock', quantity: 2, price: 1 },
          { productId: 'rfid-cards-10', quantity: 1 },
        ],
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const { url, orderRef, checkoutId, token } = created.json();
    expect(orderRef).toMatch(/^LK-[A-Z0-9]{8}$/);
    expect((await product('smart-lock')).available).toBe(38);

    const page = await t.request({ method: 'GET', url: new URL(url).pathname });
    expect(page.body).toContain('2 × Latchkey Smart Lock');
    expect(page.body).toContain('Standard delivery');
    expect(page.body).toContain('€531.90'); // 2 × 249.00 + 29.00 + 4.90

    const paid = await payOnSandbox(t, url, CARDS.success, { email: 'pat@example.com' });
    expect(paid.statusCode).toBe(303);
    expect(checkoutOf(paid.headers.location as string)).toEqual({ id: checkoutId, token });
    const view = await t.request({
      method: 'GET',
      url: `/api3/payments/checkout/${checkoutId}?token=${token}`,
    });
    expect(view.json()).toMatchObject({ kind: 'order', status: 'complete', orderRef, amountTotal: 53190 });

    const smartLock = await t.app.db
      .selectFrom('products')
      .selectAll()
      .where('id', '=', 'smart-lock')
      .executeTakeFirstOrThrow();
    expect(smartLock).toMatchObject({ stock_on_hand: 38, stock_reserved: 0 });
    const [mail] = (await listMailTo(t.app.db, 'pat@example.com')).filter(
      (m) => m.template === 'order_confirmation',
    );
    expect(mail?.subject).toBe(`Your Latchkey order ${orderRef}`);
    expect(mail?.text_body).toContain('2 × Latchkey Smart Lock: €498.00');
    expect(mail?.text_body).toContain('Total paid: €531.90');
    const audit = await t.app.db
      .selectFrom('commerce_audit')
      .select('action')
      .where('entity_type', '=', 'order')
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['order.create', 'order.paid']),
    );
  });

  it('charges nothing for a declined card, and turning back releases the stock', async () => {
    const created = await order(anOrder({ items: [{ productId: 'code-lock', quantity: 2 }] }));
    const { url, checkoutId, token } = created.json();
    expect((await product('code-lock')).available).toBe(1);
    const declined = await payOnSandbox(t, url, CARDS.declined);
    expect(declined.statusCode).toBe(402);
    const canceled = await t.request({
      method: 'POST',
      url: `/api3/payments/checkout/${checkoutId}/cancel`,
      payload: { token },
    });
    expect(canceled.json()).toMatchObject({ status: 'canceled' });
    expect((await product('code-lock')).available).toBe(3);
    const row = await t.app.db
      .selectFrom('orders')
      .selectAll()
      .where('checkout_id', '=', checkoutId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'canceled', paid_at: null });
    // Canceling again changes nothing, and a stranger's token opens nothing.
    await t.request({
      method: 'POST',
      url: `/api3/payments/checkout/${checkoutId}/cancel`,
      payload: { token },
    });
    expect((await product('code-lock')).available).toBe(3);
    const stranger = await t.request({
      method: 'POST',
      url: `/api3/payments/checkout/${checkoutId}/cancel`,
      payload: { token: crypto.randomBytes(24).toString('base64url') },
    });
    expect(stranger.statusCode).toBe(404);
  });

  it('sells no more than there is, even to buyers at the same moment', async () => {
    const tooMany = await order(anOrder({ items: [{ productId: 'code-lock', quantity: 4 }] }));
    expect(tooMany.statusCode).toBe(409);
    expect(tooMany.json().error).toMatchObject({
      code: 'out_of_stock',
      message: 'Only 3 of Keypad Code Lock left',
    });
    const both = await Promise.all([
      order(anOrder({ items: [{ productId: 'code-lock', quantity: 2 }] })),
      order(anOrder({ items: [{ productId: 'code-lock', quantity: 2 }] })),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await product('code-lock')).available).toBe(1);
  });

  it('releases the stock of a checkout nobody finished', async () => {
    const created = await order(anOrder({ items: [{ productId: 'code-lock', quantity: 3 }] }));
    expect((await product('code-lock')).available).toBe(0);
    await t.app.db
      .updateTable('checkouts')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', created.json().checkoutId)
      .execute();
    await sweepPayments(t.app.db, t.app.payments);
    expect((await product('code-lock')).available).toBe(3);
    const row = await t.app.db
      .selectFrom('orders')
      .select('status')
      .where('ref', '=', created.json().orderRef)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('expired');
    // The hosted page no longer takes a card for it.
    const late = await payOnSandbox(t, created.json().url, CARDS.success);
    expect(late.statusCode).toBe(303);
    expect(late.headers.location).toContain('/canceled?');
  });

  it("pre-registers a portal admin's locks in their portal, and keeps each buyer's orders to them", async () => {
    const admin = await t.signUp();
    const created = await order(
      anOrder({
        email: admin.email,
        items: [
          { productId: 'smart-lock', quantity: 2 },
          { productId: 'rfid-fobs-5', quantity: 1 },
        ],
      }),
      admin.token,
    );
    expect(created.statusCode).toBe(201);
    await payOnSandbox(t, created.json().url, CARDS.success);
    const devices = (
      await t.request({ method: 'GET', url: '/api3/portal/devices', token: admin.token })
    ).json();
    expect(devices.total).toBe(2);
    expect(devices.items[0]).toMatchObject({ online: false, lastSeenAt: null, model: 'generic-smartlock' });
    expect(devices.items.map((d: { name: string }) => d.name).join()).toContain(created.json().orderRef);

    const mine = await t.request({ method: 'GET', url: '/api3/shop/orders', token: admin.token });
    expect(mine.statusCode).toBe(200);
    const [view] = mine.json<OrderView[]>();
    expect(view).toMatchObject({
      ref: created.json().orderRef,
      status: 'paid',
      preRegisteredLocks: 2,
      portal: { _id: admin.portalId },
    });
    const [mail] = (await listMailTo(t.app.db, admin.email)).filter(
      (m) => m.template === 'order_confirmation',
    );
    expect(mail?.text_body).toContain('2 locks are already in');

    // Someone else sees none of it; a basic user's own order pre-registers nothing.
    const other = await t.signUp();
    expect((await t.request({ method: 'GET', url: '/api3/shop/orders', token: other.token })).json()).toEqual(
      [],
    );
    const member = await t.signUp();
    await t.addMember(admin.portalId, member.userId, 'user');
    const asMember = await t.request({
      method: 'POST',
      url: '/api3/stripe/order',
      token: member.token,
      portal: admin.portalId,
      payload: anOrder({ items: [{ productId: 'smart-lock', quantity: 1 }] }),
    });
    await payOnSandbox(t, asMember.json().url, CARDS.success);
    expect(
      (await t.request({ method: 'GET', url: '/api3/portal/devices', token: admin.token })).json().total,
    ).toBe(2);
    expect(
      (await t.request({ method: 'GET', url: '/api3/shop/orders', token: member.token })).json()[0],
    ).toMatchObject({
      portal: null,
      preRegisteredLocks: 0,
    });
    expect((await t.request({ method: 'GET', url: '/api3/shop/orders' })).statusCode).toBe(401);
  });

  it('refuses an order with a token that does not verify, and too many orders from one address', async () => {
    const bad = await t.request({
      method: 'POST',
      url: '/api3/stripe/order',
      token: 'nope',
      payload: anOrder(),
    });
    expect(bad.statusCode).toBe(401);
    const from = { remoteAddress: '10.9.9.9' };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const placed = await t.request({
        method: 'POST',
        url: '/api3/stripe/order',
        payload: anOrder({ items: [{ productId: 'rfid-cards-10', quantity: 1 }] }),
        ...from,
      });
      statuses.push(placed.statusCode);
      // Each is turned back at once: an address may hold only a few open checkouts (shop-holds.test.ts).
      if (placed.statusCode === 201) {
        const { checkoutId, token } = placed.json();
        await t.request({
          method: 'POST',
          url: `/api3/payments/checkout/${checkoutId}/cancel`,
          payload: { token },
        });
      }
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('platform staff', () => {
  it('list every order and the stock, and set the units on hand (audited)', async () => {
    const staff = await t.createSuperAdmin();
    const admin = await t.signUp();
    await order(anOrder({ email: 'staff-list@example.com' }));
    const list = await t.request({
      method: 'GET',
      url: '/api3/system/orders?search=staff-list&filterBy=status&filterValue=pending',
      token: staff.token,
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({
      total: 1,
      items: [{ email: 'staff-list@example.com', status: 'pending' }],
    });
    expect(
      (await t.request({ method: 'GET', url: '/api3/system/orders', token: admin.token })).statusCode,
    ).toBe(403);

    const inventory = await t.request({ method: 'GET', url: '/api3/system/inventory', token: staff.token });
    expect(inventory.json().find((item: { _id: string }) => item._id === 'wireless-keypad')).toMatchObject({
      onHand: 60,
      reserved: 2,
      available: 58,
    });
    const adjusted = await t.request({
      method: 'POST',
      url: '/api3/system/inventory/wireless-keypad',
      token: staff.token,
      payload: { onHand: 100, reason: 'Delivery from the factory' },
    });
    expect(adjusted.json()).toMatchObject({ onHand: 100, reserved: 2, available: 98 });
    const below = await t.request({
      method: 'POST',
      url: '/api3/system/inventory/wireless-keypad',
      token: staff.token,
      payload: { onHand: 1, reason: 'Count' },
    });
    expect(below.statusCode).toBe(409);
    const missing = await t.request({
      method: 'POST',
      url: '/api3/system/inventory/nothing',
      token: staff.token,
      payload: { onHand: 1, reason: 'Count' },
    });
    expect(missing.statusCode).toBe(404);
    const audit = await t.app.db
      .selectFrom('commerce_audit')
      .selectAll()
      .where('action', '=', 'inventory.adjust')
      .execute();
    expect(audit).toHaveLength(1);
    expect(JSON.parse(audit[0]!.after_json!)).toEqual({ onHand: 100, reason: 'Delivery from the factory' });
  });
});
