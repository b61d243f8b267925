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
 * categories (with each one's count of listings). No `ls`: the categories table has no change-log
 * triggers, and a category's count moves with its listings.
 */
export const listingCategoryCollection = defineCollection({
  name: 'listingCategory',
  feature: 'listings',
  area: 'rentals',
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
});
