import { productSchema } from '@latchkey/shared';
import { z } from 'zod';
import { listProducts } from '../shop/shop.service';
import { defineCollection } from './registry';

/**
 * `product`: the shop's catalogue (features/shop), the same for every portal (the platform's, not
 * a portal's), read by any member. One product is GET product/{id}, the shop's public route already
 * at the collection's own path; the collection adds the list as a page (POST product), from the
 * same service as GET product: the products on sale with their prices and the units available.
 * Products are changed by platform staff only, so nothing is written here.
 */
export const productCollection = defineCollection({
  name: 'product',
  feature: 'shop',
  idKind: 'productId',
  record: productSchema,
  list: {
    access: 'member',
    summary: 'The products on sale, with prices and stock (as GET product)',
    filter: z.strictObject({}),
    handler: async (caller) => {
      const items = await listProducts(caller.db);
      return { items, total: items.length };
    },
  },
});
