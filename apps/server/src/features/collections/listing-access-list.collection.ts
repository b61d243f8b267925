import { accessListEntrySchema, idSchema } from '@latchkey/shared';
import { z } from 'zod';
import { getAccessList } from '../listings/access-list.service';
import { perListing } from './listing-scope';
import { defineCollection } from './registry';

/**
 * `listingAccessList`: who else gets a listing's locks around each of its stays, the cleaner after
 * check-out (features/listings' access list), for admins. Read only here: an entry is added,
 * changed and removed on the listing's own REST routes (listing/{id}/accessList/…), which name the
 * listing; there is no GET of one entry. The list is one listing's (`listingId`, as GET
 * listing/{id}/accessList), else every live listing's, each entry with its listing; a listing has
 * at most 10. No `ls`: the access list table has no change-log triggers. `idKind` is the listing's:
 * no route of this collection names an entry.
 */
export const listingAccessListCollection = defineCollection({
  name: 'listingAccessList',
  feature: 'listings',
  area: 'rentals',
  idKind: 'listingId',
  record: accessListEntrySchema.extend({ listingId: z.string() }),
  list: {
    access: 'admin',
    summary:
      "A listing's access list with `listingId` (as GET listing/{id}/accessList), else every listing's",
    filter: z.strictObject({ listingId: idSchema.optional() }),
    handler: (caller, { listingId }) =>
      perListing(caller, listingId, (id) => getAccessList(caller.db, caller.portalId, id)),
  },
});
