import { listingsQuerySchema, listingSummarySchema } from '@latchkey/shared';
import { getListings, summarizeListings } from '../listings/listings.service';
import { defineCollection } from './registry';

/**
 * `listing`: a portal's rental listings (features/listings), for admins. The feature's REST routes
 * already answer the collection's own paths with the same services — GET listing/{id}, POST
 * listing/new (with its plan and feature checks), POST listing/{id} and DELETE listing/{id} — so
 * the collection registers only what they lack: the page of listings with the list query as the
 * body (POST listing), and `ls`. A change is one of what a row of that list shows: the title,
 * category, published flag, its locks, images (the cover) and stays (requests waiting, the next
 * arrival), and every save (migration 0048). A new share or calendar link is none. A deleted
 * listing is a tombstone; its reviews, images and access list are not tombstoned one by one (each
 * names it).
 */
export const listingCollection = defineCollection({
  name: 'listing',
  feature: 'listings',
  idKind: 'listingId',
  record: listingSummarySchema,
  list: {
    access: 'admin',
    summary: "A page of the portal's listings (as GET listing)",
    filter: listingsQuerySchema,
    handler: (caller, query) => getListings(caller.db, caller.portalId, query),
  },
  ls: {
    access: 'admin',
    summary: 'Listings added, changed (locks, images, stays) and deleted since a cursor',
    // No get of this collection (GET listing/{id} answers the whole listing): as the list's rows.
    load: async (caller, ids) => {
      const rows = await caller.db
        .selectFrom('listings')
        .selectAll()
        .where('portal_id', '=', caller.portalId)
        .where('id', 'in', ids)
        .where('deleted_at', 'is', null)
        .execute();
      return summarizeListings(caller.db, caller.portalId, rows);
    },
  },
});
