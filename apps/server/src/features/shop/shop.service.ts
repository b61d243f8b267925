import crypto from 'node:crypto';
import {
  BILLING_CURRENCY,
  REPEAT_ORDER_WINDOW_HOURS,
  shippingOptionsFor,
  type Address,
  type InventoryItem,
  type OrderCreated,
  type OrderStatus,
  type OrderView,
  type Product,
  type Quote,
  type ShippingCountry,
  type ShippingOptionId,
  type StockAdjustment,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { CheckoutRow, OrderRow, ProductRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { appendAuditEntry } from '../../base/audit/audit.repository';
import { toDevice } from '../devices/device.presenter';
import { insertDevice } from '../devices/devices.repository';
import { hashDeviceSecret } from '../devices/devices.service';
import { assertMayAddLocks, type LockAllowance } from '../subscriptions/plan-allowance';
import { sendMail } from '../../base/mail/send-mail';
import { recordMoneyChange } from '../payments/commerce-audit';
import { orderConfirmationMail } from '../payments/payments.mail';
import type { EventContext, Payments } from '../payments/payments-context';
import { endCheckout, startCheckout } from '../payments/payments.service';
import type { SessionFacts } from '../payments/provider-objects';
import { raiseStaffAlert } from '../payments/staff-alerts';
import { findPortalById } from '../../base/tenancy/portals.repository';
import {
  countOrderDevices,
  findOpenOrderCheckouts,
  findOrder,
  findOrderItems,
  insertOrder,
  listAllOrders,
  listBuyerOrders,
  listPaidOrdersOfEmail,
  moveOrder,
} from './orders.repository';
import {
  findActiveProducts,
  findProduct,
  listActiveProducts,
  listAllProducts,
  releaseStock,
  reserveStock,
  setStockOnHand,
  takeStock,
} from './products.repository';
import {
  assertWithinHoldLimits,
  lapsedHeldUnits,
  releaseLapsedHolds,
  UNOPENED_HOLD_MINUTES,
} from './stock-holds';

// The hardware shop (issue 13 item 4). Every amount is computed here from the catalogue's prices:
// the client names products and quantities only. Paying holds the stock (reserved) until the
// checkout is paid (taken), canceled or expired (released); each move happens once, guarded by
// the order's state. What one buyer may hold, and for how long: stock-holds.ts.

/** On hand less held; `lapsed`: units whose hold has ended but are not released yet (not held). */
const available = (row: ProductRow, lapsed?: Map<string, number>) =>
  Math.max(0, row.stock_on_hand - row.stock_reserved + (lapsed?.get(row.id) ?? 0));

export function toProduct(row: ProductRow, lapsed?: Map<string, number>): Product {
  return {
    _id: row.id,
    sku: row.sku,
    name: row.name,
    kind: row.kind,
    summary: row.summary,
    description: row.description,
    image: row.image,
    price: row.price,
    currency: row.currency,
    available: available(row, lapsed),
    packSize: row.pack_size,
    preRegisters: row.lock_model !== null,
  };
}

export async function listProducts(db: Database): Promise<Product[]> {
  const lapsed = await lapsedHeldUnits(db);
  return (await listActiveProducts(db)).map((row) => toProduct(row, lapsed));
}

export async function getProduct(db: Database, id: string): Promise<Product> {
  const row = await findProduct(db, id);
  if (!row || row.active !== 1) throw AppError.notFound('Product');
  return toProduct(row, await lapsedHeldUnits(db));
}

interface PricedCart {
  lines: (Quote['lines'][number] & { product: ProductRow })[];
  unknownProductIds: string[];
  subtotal: number;
}

async function priceCart(
  db: Database,
  items: { productId: string; quantity: number }[],
): Promise<PricedCart> {
  const products = new Map(
    (
      await findActiveProducts(
        db,
        items.map((item) => item.productId),
      )
    ).map((p) => [p.id, p]),
  );
  const lapsed = await lapsedHeldUnits(db);
  const lines: PricedCart['lines'] = [];
  const unknownProductIds: string[] = [];
  for (const item of items) {
    const product = products.get(item.productId);
    if (!product) {
      unknownProductIds.push(item.productId);
      continue;
    }
    lines.push({
      product,
      productId: product.id,
      sku: product.sku,
      name: product.name,
      image: product.image,
      unitPrice: product.price,
      quantity: item.quantity,
      lineTotal: product.price * item.quantity,
      available: available(product, lapsed),
    });
  }
  return { lines, unknownProductIds, subtotal: lines.reduce((sum, line) => sum + line.lineTotal, 0) };
}

/** POST shop/quote: the cart at the server's prices, with the shipping options for a country. */
export async function quoteCart(
  db: Database,
  input: {
    items: { productId: string; quantity: number }[];
    country?: ShippingCountry;
    shippingOption?: ShippingOptionId;
  },
): Promise<Quote> {
  const priced = await priceCart(db, input.items);
  const shippingOptions = input.country ? shippingOptionsFor(input.country, BILLING_CURRENCY) : [];
  const chosen = shippingOptions.find((option) => option.id === input.shippingOption);
  return {
    lines: priced.lines.map(({ product: _product, ...line }) => line),
    unknownProductIds: priced.unknownProductIds,
    subtotal: priced.subtotal,
    currency: BILLING_CURRENCY,
    shippingOptions,
    shipping: chosen?.price ?? null,
    total: priced.subtotal + (chosen?.price ?? 0),
  };
}

const REF_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

async function newOrderRef(db: Database): Promise<string> {
  for (;;) {
    const bytes = crypto.randomBytes(8);
    const ref = `LK-${Array.from(bytes, (byte) => REF_ALPHABET[byte % REF_ALPHABET.length]).join('')}`;
    const taken = await db.selectFrom('orders').select('id').where('ref', '=', ref).executeTakeFirst();
    if (!taken) return ref;
  }
}

/** Who is buying: a visitor (null), or a signed-in person, acting in a portal where they are admin. */
export interface Buyer {
  userId: string;
  /** The portal its locks arrive in (the buyer is an admin there). */
  portalId: string | null;
  /** Whether those locks must fit the portal's plan (plan-allowance.ts); default enforced. */
  lockAllowance?: LockAllowance;
}

/**
 * POST stripe/order: the order from the catalogue's own prices, its stock held, then the provider's
 * checkout. Stock that is not there is a 409 naming the line; nothing is held then.
 */
/**
 * A cart paid twice by mistake (issue 19, item 2): the paid items stayed in a cart (on another
 * address of the site, or in a tab that never saw the success page) and were ordered again. An
 * order of exactly the items (products and quantities) this email paid for in the last
 * REPEAT_ORDER_WINDOW_HOURS is refused with 409 `already_paid`, naming the paid order; the buyer
 * who means it orders again with `again`. Only paid orders count: an unpaid one holds stock and
 * ends by itself.
 */
async function refuseCartPaidAlready(
  db: Database,
  email: string,
  lines: { productId: string; quantity: number }[],
): Promise<void> {
  const since = new Date(Date.now() - REPEAT_ORDER_WINDOW_HOURS * 3_600_000);
  const paid = await listPaidOrdersOfEmail(db, email, since);
  if (paid.length === 0) return;
  const signature = (items: { productId: string; quantity: number }[]) =>
    items
      .map((item) => `${item.productId}×${item.quantity}`)
      .sort()
      .join(' ');
  const wanted = signature(lines);
  const items = await findOrderItems(
    db,
    paid.map((order) => order.id),
  );
  const same = paid.find(
    (order) =>
      signature(
        items
          .filter((item) => item.order_id === order.id)
          .map((item) => ({ productId: item.product_id, quantity: item.quantity })),
      ) === wanted,
  );
  if (!same) return;
  throw new AppError(
    'already_paid',
    `These items are paid for already: order ${same.ref}. Empty the cart, or order them again if you mean to buy them twice.`,
    409,
  );
}

export async function createOrder(
  db: Database,
  payments: Payments,
  input: {
    items: { productId: string; quantity: number }[];
    email: string;
    address: Address;
    shippingOption: ShippingOptionId;
    again?: boolean;
  },
  buyer: Buyer | null,
  ip: string | null,
): Promise<OrderCreated> {
  const priced = await priceCart(db, input.items);
  if (priced.unknownProductIds.length > 0) {
    throw AppError.badRequest(
      'Some items are not on sale',
      input.items.flatMap((item, index) =>
        priced.unknownProductIds.includes(item.productId)
          ? [{ path: `body.items.${index}.productId`, message: 'is not a product on sale' }]
          : [],
      ),
    );
  }
  const shipping = shippingOptionsFor(input.address.country, BILLING_CURRENCY).find(
    (option) => option.id === input.shippingOption,
  );
  if (!shipping) {
    throw AppError.badRequest(`That shipping option is not offered to ${input.address.country}`, [
      { path: 'body.shippingOption', message: `is not offered to ${input.address.country}` },
    ]);
  }
  if (!input.again) await refuseCartPaidAlready(db, input.email, priced.lines);
  // Its locks arrive pre-registered in the buyer's portal: they must fit its plan (a 402 otherwise).
  const locks = priced.lines.reduce(
    (sum, line) => sum + (line.product.lock_model ? line.quantity * line.product.pack_size : 0),
    0,
  );
  if (buyer?.portalId && locks > 0 && buyer.lockAllowance !== 'exempt') {
    await assertMayAddLocks(db, buyer.portalId, locks);
  }
  const orderId = crypto.randomUUID();
  const checkoutId = crypto.randomUUID();
  const ref = await newOrderRef(db);
  const now = new Date();
  const expiresAt = new Date(now.getTime() + payments.checkoutExpiryMinutes * 60_000);
  const total = priced.subtotal + shipping.price;
  // Units kept only by lapsed holds are let go first: an order is never refused for them.
  const short = priced.lines.filter(
    (line) => line.product.stock_on_hand - line.product.stock_reserved < line.quantity,
  );
  if (short.length > 0) {
    await releaseLapsedHolds(
      db,
      payments,
      short.map((line) => line.productId),
      now,
    );
  }

  await db.transaction().execute(async (trx) => {
    await assertWithinHoldLimits(trx, { userId: buyer?.userId ?? null, ip }, priced.lines, now);
    for (const [index, line] of priced.lines.entries()) {
      if (!(await reserveStock(trx, line.productId, line.quantity))) {
        const left = available((await findProduct(trx, line.productId))!);
        const message = left === 0 ? `${line.name} is sold out` : `Only ${left} of ${line.name} left`;
        throw new AppError('out_of_stock', message, 409, [{ path: `body.items.${index}.quantity`, message }]);
      }
    }
    await insertOrder(
      trx,
      {
        id: orderId,
        ref,
        status: 'pending',
        email: input.email,
        buyer_user_id: buyer?.userId ?? null,
        buyer_ip: ip,
        portal_id: buyer?.portalId ?? null,
        address_json: JSON.stringify(input.address),
        shipping_option: shipping.id,
        shipping_name: shipping.name,
        shipping_price: shipping.price,
        shipping_min_days: shipping.minDays,
        shipping_max_days: shipping.maxDays,
        subtotal: priced.subtotal,
        total,
        currency: BILLING_CURRENCY,
        checkout_id: checkoutId,
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        paid_at: null,
        canceled_at: null,
      },
      priced.lines.map((line, index) => ({
        order_id: orderId,
        line: index + 1,
        product_id: line.productId,
        sku: line.sku,
        name: line.name,
        image: line.image,
        unit_price: line.unitPrice,
        quantity: line.quantity,
        line_total: line.lineTotal,
      })),
    );
    await recordMoneyChange(trx, {
      portalId: buyer?.portalId ?? null,
      actorUserId: buyer?.userId ?? null,
      ip,
      action: 'order.create',
      entityType: 'order',
      entityId: orderId,
      after: {
        ref,
        lines: priced.lines.map((line) => ({
          sku: line.sku,
          quantity: line.quantity,
          unitPrice: line.unitPrice,
        })),
        shipping: { option: shipping.id, price: shipping.price },
        total,
        currency: BILLING_CURRENCY,
      },
    });
  });

  try {
    const started = await startCheckout(db, payments, {
      kind: 'order',
      checkoutId,
      holdMinutes: UNOPENED_HOLD_MINUTES,
      portalId: buyer?.portalId ?? null,
      userId: buyer?.userId ?? null,
      ip,
      orderId,
      currency: BILLING_CURRENCY,
      mode: 'payment',
      lines: priced.lines.map((line) => ({
        name: line.name,
        unitAmount: line.unitPrice,
        quantity: line.quantity,
      })),
      shipping: {
        name: shipping.name,
        amount: shipping.price,
        minDays: shipping.minDays,
        maxDays: shipping.maxDays,
      },
      customerEmail: input.email,
      metadata: { order_id: orderId, order_ref: ref },
    });
    return { orderRef: ref, checkoutId, token: started.token, url: started.url };
  } catch (error) {
    await db.transaction().execute((trx) => releaseOrder(trx, orderId, 'canceled'));
    throw error;
  }
}

/** An unpaid order ends (canceled or expired): its held stock goes back on the shelf, once. */
export async function releaseOrder(
  trx: Database,
  orderId: string,
  status: 'canceled' | 'expired',
): Promise<void> {
  if (!(await moveOrder(trx, orderId, ['pending'], status, { canceled_at: nowIso() }))) return;
  for (const item of await findOrderItems(trx, [orderId])) {
    await releaseStock(trx, item.product_id, item.quantity);
  }
  const order = (await findOrder(trx, orderId))!;
  await recordMoneyChange(trx, {
    portalId: order.portal_id,
    actorUserId: null,
    action: `order.${status}`,
    entityType: 'order',
    entityId: orderId,
    before: { status: 'pending' },
    after: { status, ref: order.ref },
  });
}

/**
 * The provider says the order's checkout was paid: the stock leaves the shelf, its locks are
 * pre-registered in the buyer's portal, and the buyer gets the confirmation mail. An amount that is
 * not the order's is refused (the event fails and platform staff are told).
 */
export async function markOrderPaid(
  trx: Database,
  event: EventContext,
  checkout: CheckoutRow,
  session: SessionFacts,
): Promise<void> {
  if (!checkout.order_id) throw new Error(`Checkout ${checkout.id} names no order`);
  const order = await findOrder(trx, checkout.order_id);
  if (!order) throw new Error(`Order ${checkout.order_id} of checkout ${checkout.id} is missing`);
  if (
    session.amountTotal !== order.total ||
    (session.currency !== null && session.currency.toUpperCase() !== order.currency)
  ) {
    throw new Error(
      `Order ${order.ref} costs ${order.total} ${order.currency} but ${session.amountTotal} ${session.currency} was paid`,
    );
  }
  const held = order.status === 'pending';
  const paidAt = event.at.toISOString();
  if (!(await moveOrder(trx, order.id, ['pending', 'expired', 'canceled'], 'paid', { paid_at: paidAt })))
    return;
  const items = await findOrderItems(trx, [order.id]);
  for (const item of items) {
    // Paid after its hold ended (the provider took the money anyway): held again when the units are
    // still free, so no other checkout's hold is taken; otherwise staff are told.
    const reheld = !held && (await reserveStock(trx, item.product_id, item.quantity));
    await takeStock(trx, item.product_id, item.quantity, held || reheld);
    const product = await findProduct(trx, item.product_id);
    if (!held && !reheld && product) {
      const short = product.stock_reserved - product.stock_on_hand;
      await raiseStaffAlert(
        trx,
        {
          kind: 'stock_oversold',
          title: `${product.name} is oversold`,
          message: `Order ${order.ref} was paid after its checkout had ended, and ${item.quantity} × ${product.sku} were no longer free: ${short} more sold and held than on hand.`,
          portalId: order.portal_id,
          onceKey: `stock_oversold:${order.id}:${item.product_id}`,
        },
        event.payments.publicUrl,
      );
    }
  }
  const preRegistered = order.portal_id ? await preRegisterLocks(trx, order, items) : 0;
  const address = JSON.parse(order.address_json) as Address;
  const portal = order.portal_id ? await findPortalById(trx, order.portal_id) : undefined;
  await sendMail(trx, 'system', {
    portalId: order.portal_id,
    template: 'order_confirmation',
    to: order.email,
    ...orderConfirmationMail({
      ref: order.ref,
      lines: items.map((item) => ({ name: item.name, quantity: item.quantity, lineTotal: item.line_total })),
      subtotal: order.subtotal,
      shippingName: order.shipping_name,
      shippingPrice: order.shipping_price,
      total: order.total,
      currency: order.currency,
      address,
      minDays: order.shipping_min_days,
      maxDays: order.shipping_max_days,
      preRegisteredLocks: preRegistered,
      portalName: portal?.name ?? null,
      link: order.buyer_user_id
        ? `${event.payments.publicUrl}/app/orders`
        : `${event.payments.publicUrl}/goto-app`,
    }),
  });
  await recordMoneyChange(trx, {
    portalId: order.portal_id,
    actorUserId: null,
    action: 'order.paid',
    entityType: 'order',
    entityId: order.id,
    before: { status: order.status },
    after: {
      status: 'paid',
      ref: order.ref,
      total: order.total,
      currency: order.currency,
      payment: session.paymentIntent,
      preRegisteredLocks: preRegistered,
    },
  });
}

/** The order's locks, one per unit, in the buyer's portal: "not yet connected" until they report. */
async function preRegisterLocks(
  trx: Database,
  order: OrderRow,
  items: Awaited<ReturnType<typeof findOrderItems>>,
): Promise<number> {
  const portal = await findPortalById(trx, order.portal_id!);
  if (!portal) return 0;
  let made = 0;
  for (const item of items) {
    const product = await findProduct(trx, item.product_id);
    if (!product?.lock_model) continue;
    for (let unit = 1; unit <= item.quantity * product.pack_size; unit++) {
      const id = crypto.randomUUID();
      const now = nowIso();
      made++;
      // The lock's secret is provisioned on it before it ships; the portal keeps only its hash.
      await insertDevice(trx, {
        id,
        portal_id: portal.id,
        name: `${product.name} ${made} (${order.ref})`.slice(0, 80),
        model: product.lock_model,
        serial: `${order.ref}-${made}`,
        time_zone: portal.time_zone,
        secret_hash: hashDeviceSecret(crypto.randomBytes(32).toString('base64url')),
        created_at: now,
        updated_at: now,
      });
      await trx
        .insertInto('order_devices')
        .values({ portal_id: portal.id, order_id: order.id, device_id: id })
        .execute();
      const device = await trx
        .selectFrom('devices')
        .selectAll()
        .where('portal_id', '=', portal.id)
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      await appendAuditEntry(trx, portal.id, {
        actorUserId: order.buyer_user_id,
        action: 'device.create',
        entityType: 'device',
        entityId: id,
        after: { ...toDevice(device), order: order.ref },
      });
    }
  }
  return made;
}

async function toOrderViews(db: Database, rows: OrderRow[]): Promise<OrderView[]> {
  const ids = rows.map((row) => row.id);
  const pendingIds = rows.filter((row) => row.status === 'pending').map((row) => row.id);
  const [items, devices, holds] = await Promise.all([
    findOrderItems(db, ids),
    countOrderDevices(db, ids),
    findOpenOrderCheckouts(db, pendingIds),
  ]);
  const holdUntil = new Map(holds.map((hold) => [hold.order_id, toIso(hold.expires_at)]));
  const portalIds = [...new Set(rows.map((row) => row.portal_id).filter((id): id is string => id !== null))];
  const portals = portalIds.length
    ? await db.selectFrom('portals').select(['id', 'name']).where('id', 'in', portalIds).execute()
    : [];
  const portalNames = new Map(portals.map((portal) => [portal.id, portal.name]));
  return rows.map((row) => {
    const address = JSON.parse(row.address_json) as Address;
    return {
      _id: row.id,
      ref: row.ref,
      status: row.status,
      email: row.email,
      address: {
        name: address.name,
        company: address.company ?? '',
        line1: address.line1,
        line2: address.line2 ?? '',
        postalCode: address.postalCode,
        city: address.city,
        region: address.region ?? '',
        country: address.country,
        phone: address.phone ?? '',
      },
      shipping: {
        id: row.shipping_option,
        name: row.shipping_name,
        price: row.shipping_price,
        currency: row.currency,
        minDays: row.shipping_min_days,
        maxDays: row.shipping_max_days,
      },
      lines: items
        .filter((item) => item.order_id === row.id)
        .map((item) => ({
          productId: item.product_id,
          sku: item.sku,
          name: item.name,
          image: item.image,
          unitPrice: item.unit_price,
          quantity: item.quantity,
          lineTotal: item.line_total,
        })),
      subtotal: row.subtotal,
      total: row.total,
      currency: row.currency,
      portal: row.portal_id ? { _id: row.portal_id, name: portalNames.get(row.portal_id) ?? '' } : null,
      preRegisteredLocks: devices.get(row.id) ?? 0,
      createdAt: toIso(row.created_at),
      paidAt: toIso(row.paid_at),
      holdUntil: row.status === 'pending' ? (holdUntil.get(row.id) ?? null) : null,
    };
  });
}

/** GET shop/orders: what the signed-in person bought. */
export async function listMyOrders(db: Database, userId: string): Promise<OrderView[]> {
  return toOrderViews(db, await listBuyerOrders(db, userId));
}

/**
 * POST shop/orders/{id}/cancel: the buyer gives up an order awaiting payment, so its units go back
 * on sale at once instead of when its hold ends. Its checkout ends as a turned-back one does (at the
 * provider too, so it can no longer be paid; money already taken still completes it: paid wins).
 * Another person's order is a 404; one no longer awaiting payment a 409.
 */
export async function cancelMyOrder(
  db: Database,
  payments: Payments,
  buyer: { userId: string; ip: string },
  orderId: string,
): Promise<OrderView> {
  const order = await findOrder(db, orderId);
  if (!order || order.buyer_user_id !== buyer.userId) throw AppError.notFound('Order');
  if (order.status !== 'pending')
    throw AppError.conflict(`Order ${order.ref} is ${order.status}: nothing to cancel`);
  const [checkout] = await findOpenOrderCheckouts(db, [order.id]);
  if (checkout)
    await endCheckout(db, payments, checkout, 'canceled', { actorUserId: buyer.userId, ip: buyer.ip });
  // A checkout already ended (by the sweep) released the order; a lone pending order is released here.
  else await db.transaction().execute((trx) => releaseOrder(trx, order.id, 'canceled'));
  return (await toOrderViews(db, [(await findOrder(db, order.id))!]))[0]!;
}

/** GET system/orders: every order, for platform staff. */
export async function listOrdersForStaff(
  db: Database,
  query: {
    skip: number;
    limit: number;
    search?: string;
    sortBy?: 'createdAt' | 'total' | 'ref';
    descending: boolean;
    filterBy?: 'status';
    filterValue?: string;
  },
): Promise<{ items: OrderView[]; total: number }> {
  const status = query.filterBy === 'status' ? (query.filterValue as OrderStatus) : undefined;
  const { rows, total } = await listAllOrders(db, { ...query, status });
  return { items: await toOrderViews(db, rows), total };
}

/** GET system/inventory. */
export async function listInventory(db: Database): Promise<InventoryItem[]> {
  return (await listAllProducts(db)).map((row) => ({
    _id: row.id,
    sku: row.sku,
    name: row.name,
    onHand: row.stock_on_hand,
    reserved: row.stock_reserved,
    available: available(row),
  }));
}

/** POST system/inventory/{id}: staff set the units on hand (a delivery, a count); audited. */
export async function adjustStock(
  db: Database,
  actor: { userId: string; ip: string },
  productId: string,
  input: StockAdjustment,
): Promise<InventoryItem> {
  return db.transaction().execute(async (trx) => {
    const product = await findProduct(trx, productId);
    if (!product) throw AppError.notFound('Product');
    if (input.onHand < product.stock_reserved) {
      throw AppError.conflict(
        `${product.stock_reserved} units are held by open checkouts: on hand cannot be fewer`,
      );
    }
    await setStockOnHand(trx, productId, input.onHand);
    await recordMoneyChange(trx, {
      portalId: null,
      actorUserId: actor.userId,
      ip: actor.ip,
      action: 'inventory.adjust',
      entityType: 'product',
      entityId: productId,
      before: { onHand: product.stock_on_hand },
      after: { onHand: input.onHand, reason: input.reason },
    });
    return (await listInventory(trx)).find((item) => item._id === productId)!;
  });
}
