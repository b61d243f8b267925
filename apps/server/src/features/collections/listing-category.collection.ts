import { listingCategorySchema } from '@latchkey/shared';
import { z } from 'zod';
import { AppError } from '../../base/http/errors';
import { getCategories } from '../listings/categories.service';
import { defineCollection } from './registry';

/**
 * `listingCategory`: the named groups a portal files its listings under (features/listings), for
 * admins. The feature's REST routes already answer POST listingCategory/new, POST
 * listingCategory/{id} (rename) and DELETE listingCategory/{id} at the collection's own paths, with
 * the same services; the collection adds what they lack: one category (GET listingCategory/{id})
 * and the list as a page (POST listingCategory). Both read the feature's own list of the portal's
 * categories (with each one's count of listings). `ls` hears of categories added, renamed and
 * deleted (migration 0048); the count moves with the listings, whose own log says which category
 * each is in, so it is no change of the category.
 */
export const listingCategoryCollection = defineCollection({
  name: 'listingCategory',
  feature: 'listings',
  idKind: 'categoryId',
  record: listingCategorySchema,
  get: {
    access: 'admin',
    summary: 'A listing category, with its count of listings',
    handler: async (caller, id) => {
      const category = (await getCategories(caller.db, caller.portalId)).find((c) => c._id === id);
      if (!category) throw AppError.notFound('Category');
      return category;
    },
  },
  list: {
    access: 'admin',
    summary: "The portal's listing categories, by name (as GET listingCategory)",
    filter: z.strictObject({}),
    handler: async (caller) => {
      const items = await getCategories(caller.db, caller.portalId);
      return { items, total: items.length };
    },
  },
  ls: {
    access: 'admin',
    summary: 'Listing categories added, renamed and deleted since a cursor',
    // One read of the portal's categories for the whole page, not one per id as `get` would.
    load: async (caller, ids) =>
      (await getCategories(caller.db, caller.portalId)).filter((category) => ids.includes(category._id)),
  },
});
