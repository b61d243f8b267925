import { idSchema, orderViewSchema } from '@latchkey/shared';
import { z } from 'zod';
import { portalOrdersOf } from './order-view.collection';
import { defineCollection } from './registry';

/**
 * `orderRef`: an order found by the reference printed on its mail and screens (`LK-…`), among the
 * caller's orders in the acting portal (features/shop; the same orders as `orderView`). The shop
 * has no route reading an order by its reference (only platform staff search them), so this is a
 * list filtered by `ref`, answering the one order or none; without `ref`, all of them.
 * `ref` is checked as an id, not against the reference's exact format: a reference that cannot
 * exist simply finds nothing.
 */
export const orderRefCollection = defineCollection({
  name: 'orderRef',
  feature: 'shop',
  // No GET by id (see orderView's idKind); the list is the only route.
  idKind: 'checkoutId',
  record: orderViewSchema,
  list: {
    access: 'member',
    summary: "The caller's order in this portal with a reference (as on GET shop/orders)",
    filter: z.strictObject({ ref: idSchema.optional() }),
    handler: async (caller, filter) => {
      // References are printed in capitals; one typed by hand may not be.
      const ref = filter.ref?.toUpperCase();
      const items = (await portalOrdersOf(caller.db, caller.portalId, caller.userId)).filter(
        (order) => ref === undefined || order.ref === ref,
      );
      return { items, total: items.length };
    },
  },
});
