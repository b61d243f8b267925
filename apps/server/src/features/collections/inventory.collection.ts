import { inventoryItemSchema, stockAdjustmentSchema } from '@latchkey/shared';
import { z } from 'zod';
import { AppError } from '../../base/http/errors';
import { adjustStock, listInventory } from '../shop/shop.service';
import { definePlatformCollection } from './registry';

/**
 * `inventory`: the shop's stock (features/shop), platform staff's alone: the catalogue is the
 * deployment's, the same in every portal (a portal sees each product's `available` units through
 * `product`). get and list (each product with units on hand, held by unpaid checkouts, and
 * available), and save (set the units on hand with a reason: a delivery, a count; in the money
 * change log), through the same service as GET and POST system/inventory. `{id}` is the product's
 * id. No `ls`: the change log is per portal.
 */
export const inventoryCollection = definePlatformCollection({
  name: 'inventory',
  feature: 'shop',
  idKind: 'productId',
  record: inventoryItemSchema,
  get: {
    summary: "A product's stock: on hand, held and available (platform staff)",
    handler: async (caller, id) => {
      const item = (await listInventory(caller.db)).find((candidate) => candidate._id === id);
      if (!item) throw AppError.notFound('Product');
      return item;
    },
  },
  list: {
    summary: 'The stock of every product (as GET system/inventory; platform staff)',
    filter: z.strictObject({}),
    handler: async (caller) => {
      const items = await listInventory(caller.db);
      return { items, total: items.length };
    },
  },
  save: {
    summary:
      "Set a product's units on hand: a delivery, a count (as POST system/inventory/{id}; platform staff)",
    body: stockAdjustmentSchema,
    example: { onHand: 10, reason: 'Count' },
    handler: (caller, id, adjustment) => adjustStock(caller.db, caller.staff, id, adjustment),
  },
});
