import type { OrderStatus } from '@latchkey/shared';
import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { toCount } from '../../db/mappers';
import type { CheckoutRow, OrderItemRow, OrderItemsTable, OrderRow, OrdersTable } from '../../db/schema';

// Orders belong to their buyer (an account or an email address) and, when bought while acting in a
// portal, to that portal: each read names whose orders it wants.

export async function insertOrder(
  db: Database,
  order: Insertable<OrdersTable>,
  items: Insertable<OrderItemsTable>[],
): Promise<void> {
  await db.insertInto('orders').values(order).execute();
  await db.insertInto('order_items').values(items).execute();
}

export function findOrder(db: Database, id: string): Promise<OrderRow | undefined> {
  return db.selectFrom('orders').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findOrderItems(db: Database, orderIds: string[]): Promise<OrderItemRow[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db.selectFrom('order_items').selectAll().where('order_id', 'in', orderIds).orderBy('line').execute();
}

/** The open checkouts of these orders: what holds an unpaid order's units, and until when. */
export function findOpenOrderCheckouts(db: Database, orderIds: string[]): Promise<CheckoutRow[]> {
  if (orderIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('checkouts')
    .selectAll()
    .where('order_id', 'in', orderIds)
    .where('status', '=', 'open')
    .execute();
}

/**
 * Moves an order from one state to another; answers false if it was no longer in `from` (another
 * webhook or the sweep got there first), so stock moves once.
 */
export async function moveOrder(
  db: Database,
  id: string,
  from: OrderStatus[],
  to: OrderStatus,
  at: { paid_at?: string; canceled_at?: string },
): Promise<boolean> {
  const result = await db
    .updateTable('orders')
    .set({ status: to, ...at })
    .where('id', '=', id)
    .where('status', 'in', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The orders an email paid for since a moment, newest first (a cart paid twice is asked about). */
export function listPaidOrdersOfEmail(
  db: Database,
  email: string,
  since: Date,
  limit = 20,
): Promise<OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('email', '=', email)
    .where('status', '=', 'paid')
    .where('paid_at', '>=', since.toISOString())
    .orderBy('paid_at', 'desc')
    .limit(limit)
    .execute();
}

/** The orders a person bought while signed in, newest first. */
export function listBuyerOrders(db: Database, userId: string, limit = 50): Promise<OrderRow[]> {
  return db
    .selectFrom('orders')
    .selectAll()
    .where('buyer_user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
}

/** Every order, for platform staff: a page, searched by reference or email, filtered by state. */
export async function listAllOrders(
  db: Database,
  query: {
    skip: number;
    limit: number;
    search?: string;
    sortBy?: 'createdAt' | 'total' | 'ref';
    descending: boolean;
    status?: OrderStatus;
  },
): Promise<{ rows: OrderRow[]; total: number }> {
  let base = db.selectFrom('orders');
  if (query.status) base = base.where('status', '=', query.status);
  if (query.search) {
    const term = query.search;
    base = base.where((eb) => eb.or([containsText('ref', term), containsText('email', term)]));
  }
  const total = await base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirst();
  const column = ({ createdAt: 'created_at', total: 'total', ref: 'ref' } as const)[
    query.sortBy ?? 'createdAt'
  ];
  // Newest first by default.
  const direction = query.sortBy ? (query.descending ? 'desc' : 'asc') : 'desc';
  const rows = await base
    .selectAll()
    .orderBy(column, direction)
    .orderBy('id')
    .limit(query.limit)
    .offset(query.skip)
    .execute();
  return { rows, total: toCount(total?.count as string | number | undefined) };
}

/** How many locks each order pre-registered. */
export async function countOrderDevices(db: Database, orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('order_devices')
    .select(['order_id', (eb) => eb.fn.countAll().as('count')])
    .where('order_id', 'in', orderIds)
    .groupBy('order_id')
    .execute();
  return new Map(rows.map((row) => [row.order_id, toCount(row.count as string | number)]));
}
