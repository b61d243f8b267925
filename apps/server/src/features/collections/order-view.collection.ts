import { orderViewSchema, type OrderView } from '@latchkey/shared';
import { z } from 'zod';
import { AppError } from '../../base/http/errors';
import type { Database } from '../../db/database';
import { listMyOrders } from '../shop/shop.service';
import { defineCollection } from './registry';

/**
 * The caller's orders bought while acting in the acting portal, among the newest 50 their
 * orders page reads (GET shop/orders), each with its lines and pre-registered locks. The
 * shop lets only the buyer (and platform staff) read an order, so an admin sees their own orders
 * here too, not their fellow admins'. An order bought in no portal (as a visitor, or by a basic
 * user, whose locks arrive nowhere) belongs to no portal and stays on GET shop/orders.
 */
export async function portalOrdersOf(db: Database, portalId: string, userId: string): Promise<OrderView[]> {
  return (await listMyOrders(db, userId)).filter((order) => order.portal?._id === portalId);
}

/**
 * `orderView`: shop orders (features/shop) of the acting portal, for any member (each their own,
 * as GET shop/orders lets anyone read what they bought): the list and one order by its id. Orders
 * are written by the checkout only (POST stripe/order and the provider's events), so the
 * collection reads. No `ls`: the orders table has no change-log triggers.
 *
 * `idKind`: no IdKind names an order yet (base/http/access.ts); `checkoutId` is the kind the
 * registry-driven tests fill with an id that names nothing, as their fixtures hold no order and no
 * checkout (an order has exactly one checkout).
 */
export const orderViewCollection = defineCollection({
  name: 'orderView',
  feature: 'shop',
  idKind: 'checkoutId',
  record: orderViewSchema,
  get: {
    access: 'member',
    summary: "One of the caller's orders in this portal (as on GET shop/orders)",
    handler: async (caller, id) => {
      const order = (await portalOrdersOf(caller.db, caller.portalId, caller.userId)).find(
        (o) => o._id === id,
      );
      if (!order) throw AppError.notFound('Order');
      return order;
    },
  },
  list: {
    access: 'member',
    summary: "The caller's orders in this portal, newest first (as GET shop/orders)",
    filter: z.strictObject({}),
    handler: async (caller) => {
      const items = await portalOrdersOf(caller.db, caller.portalId, caller.userId);
      return { items, total: items.length };
    },
  },
});
