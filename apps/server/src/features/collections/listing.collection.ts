import { listingsQuerySchema, listingSummarySchema } from '@latchkey/shared';
import { getListings } from '../listings/listings.service';
import { defineCollection } from './registry';

/**
 * `listing`: a portal's rental listings (features/listings), for admins. The feature's REST routes
 * already answer the collection's own paths with the same services — GET listing/{id}, POST
 * listing/new (with its plan and feature checks), POST listing/{id} and DELETE listing/{id} — so
 * the collection registers only what they lack: the page of listings with the list query as the
 * body (POST listing). No `ls`: the listings table has no change-log triggers (a listing also
 * changes with its locks, images and stays, which would each need their own).
 */
export const listingCollection = defineCollection({
  name: 'listing',
  feature: 'listings',
  area: 'rentals',
  idKind: 'listingId',
  record: listingSummarySchema,
  list: {
    access: 'admin',
    summary: "A page of the portal's listings (as GET listing)",
    filter: listingsQuerySchema,
    handler: (caller, query) => getListings(caller.db, caller.portalId, query),
  },
});
