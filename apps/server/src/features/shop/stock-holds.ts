import { SHOP_HOLD_LIMITS } from '@latchkey/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { toCount } from '../../db/mappers';
import { isPostgres } from '../../db/search';
import type { CheckoutRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import type { Payments } from '../payments/payments-context';
import { endCheckout } from '../payments/payments.service';

// What one buyer may hold (issue 16 defect 5, docs/decisions.md "Stock holds a buyer cannot
// hoard"). An order holds its units (products.stock_reserved) while its checkout is open; the
// checkout's `expires_at` is when that hold ends: a few minutes until its payment page is opened
// (providers that tell: the sandbox), then the checkout's lifetime. A hold past its end is "lapsed":
// the product pages no longer count it, the payments sweep ends its checkout, and an order that
// needs the units ends it at once.

/** How long an order holds its stock before its payment page is opened. */
export const UNOPENED_HOLD_MINUTES = 5;

/** Who holds: a signed-in person, and the address the order comes from (each capped on its own). */
export interface HoldOwner {
  userId: string | null;
  ip: string | null;
}

const live = (now: Date) => now.toISOString();

/** Units held by checkouts whose hold has lapsed but which are not ended yet, per product. */
export async function lapsedHeldUnits(db: Database, now = new Date()): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('checkouts as c')
    .innerJoin('orders as o', 'o.id', 'c.order_id')
    .innerJoin('order_items as i', 'i.order_id', 'o.id')
    .select(['i.product_id', (eb) => eb.fn.sum<number | string>('i.quantity').as('units')])
    .where('c.status', '=', 'open')
    .where('c.expires_at', '<', live(now))
    .where('c.kind', '=', 'order')
    .where('o.status', '=', 'pending')
    .groupBy('i.product_id')
    .execute();
  return new Map(rows.map((row) => [row.product_id, toCount(row.units)]));
}

/** Open checkouts whose lapsed holds keep units of these products, oldest first. */
function listLapsedHolds(db: Database, productIds: string[], now: Date, limit = 20): Promise<CheckoutRow[]> {
  return db
    .selectFrom('checkouts as c')
    .selectAll('c')
    .where('c.status', '=', 'open')
    .where('c.expires_at', '<', live(now))
    .where('c.kind', '=', 'order')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('order_items as i')
          .select('i.order_id')
          .whereRef('i.order_id', '=', 'c.order_id')
          .where('i.product_id', 'in', productIds),
      ),
    )
    .orderBy('c.expires_at')
    .limit(limit)
    .execute();
}

/**
 * Ends the checkouts whose lapsed holds keep units of these products (as the sweep would, at the
 * provider too), so that an order is never refused for stock nobody holds any longer. Answers
 * whether any was ended.
 */
export async function releaseLapsedHolds(
  db: Database,
  payments: Payments,
  productIds: string[],
  now = new Date(),
): Promise<boolean> {
  let released = false;
  for (const row of await listLapsedHolds(db, productIds, now)) {
    await endCheckout(db, payments, row, 'expired', { actorUserId: null, ip: null });
    released = true;
  }
  return released;
}

/**
 * Refuses (409 `hold_limit`, naming the line) an order that would take its buyer over
 * SHOP_HOLD_LIMITS: the person's live holds and the address's are counted each on their own. Run
 * in the order's transaction: on PostgreSQL a lock per owner makes two orders of one buyer wait for
 * each other (SQLite runs one transaction at a time), so the caps hold under concurrent orders.
 */
export async function assertWithinHoldLimits(
  trx: Database,
  owner: HoldOwner,
  lines: { productId: string; name: string; quantity: number }[],
  now = new Date(),
): Promise<void> {
  const keys = [
    ...(owner.userId ? [{ column: 'buyer_user_id' as const, value: owner.userId }] : []),
    ...(owner.ip ? [{ column: 'buyer_ip' as const, value: owner.ip }] : []),
  ];
  if (isPostgres(trx)) {
    for (const key of [...keys].sort((a, b) => a.column.localeCompare(b.column))) {
      await sql`select pg_advisory_xact_lock(hashtext(${`shop-hold:${key.column}:${key.value}`}))`.execute(
        trx,
      );
    }
  }
  for (const key of keys) {
    const held = await trx
      .selectFrom('orders as o')
      .leftJoin('checkouts as c', 'c.id', 'o.checkout_id')
      .innerJoin('order_items as i', 'i.order_id', 'o.id')
      .select(['o.id', 'i.product_id', 'i.quantity'])
      .where(`o.${key.column}`, '=', key.value)
      .where('o.status', '=', 'pending')
      // A checkout not recorded yet (its order is being placed) holds; an ended or lapsed one does not.
      .where((eb) =>
        eb.or([
          eb('c.id', 'is', null),
          eb.and([eb('c.status', '=', 'open'), eb('c.expires_at', '>=', live(now))]),
        ]),
      )
      .execute();
    const checkouts = new Set(held.map((row) => row.id)).size;
    if (checkouts >= SHOP_HOLD_LIMITS.openCheckouts) {
      const message = `${checkouts} unpaid checkouts are already open for this buyer: pay or cancel one first, or order again when one has ended`;
      throw new AppError('hold_limit', message, 409, [{ path: 'body', message }]);
    }
    const perProduct = new Map<string, number>();
    for (const row of held)
      perProduct.set(row.product_id, (perProduct.get(row.product_id) ?? 0) + row.quantity);
    for (const [index, line] of lines.entries()) {
      const already = perProduct.get(line.productId) ?? 0;
      if (already + line.quantity > SHOP_HOLD_LIMITS.unitsPerProduct) {
        const left = Math.max(0, SHOP_HOLD_LIMITS.unitsPerProduct - already);
        const message =
          already === 0
            ? `At most ${SHOP_HOLD_LIMITS.unitsPerProduct} of ${line.name} can be ordered at once`
            : `Unpaid checkouts already hold ${already} of ${line.name} for this buyer: ${left === 0 ? 'no more' : `at most ${left} more`} until they are paid or end`;
        throw new AppError('hold_limit', message, 409, [{ path: `body.items.${index}.quantity`, message }]);
      }
    }
    const total = held.reduce((sum, row) => sum + row.quantity, 0);
    const wanted = lines.reduce((sum, line) => sum + line.quantity, 0);
    if (total + wanted > SHOP_HOLD_LIMITS.units) {
      const message =
        total === 0
          ? `At most ${SHOP_HOLD_LIMITS.units} items can be ordered at once`
          : `Unpaid checkouts already hold ${total} items for this buyer: at most ${SHOP_HOLD_LIMITS.units} at once`;
      throw new AppError('hold_limit', message, 409, [{ path: 'body.items', message }]);
    }
  }
}
