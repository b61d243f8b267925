import { accessListEntrySchema, idSchema } from '@latchkey/shared';
import { z } from 'zod';
import { getAccessList } from '../listings/access-list.service';
import { presentAccessListEntry } from '../listings/listings.presenter';
import { perListing } from './listing-scope';
import { defineCollection } from './registry';

/**
 * `listingAccessList`: who else gets a listing's locks around each of its stays, the cleaner after
 * check-out (features/listings' access list), for admins. Read only here: an entry is added,
 * changed and removed on the listing's own REST routes (listing/{id}/accessList/…), which name the
 * listing; there is no GET of one entry. The list is one listing's (`listingId`, as GET
 * listing/{id}/accessList), else every live listing's, each entry with its listing; a listing has
 * at most 10. `ls` hears of entries added, changed and removed (migration 0048), each named by its
 * own `_id` as the list answers it; a deleted listing's entries are no longer read but not
 * tombstoned: the listing's own log says it went. `idKind` is the listing's: no route of this
 * collection names an entry.
 */
export const listingAccessListCollection = defineCollection({
  name: 'listingAccessList',
  feature: 'listings',
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
  ls: {
    access: 'admin',
    summary: "Listings' access list entries added, changed and removed since a cursor",
    // No get of one entry: the entries of live listings among the ids, as the list answers them.
    load: async (caller, ids) => {
      const rows = await caller.db
        .selectFrom('listing_access_lists as e')
        .innerJoin('listings as l', (j) =>
          j.onRef('l.id', '=', 'e.listing_id').onRef('l.portal_id', '=', 'e.portal_id'),
        )
        .selectAll('e')
        .where('e.portal_id', '=', caller.portalId)
        .where('e.id', 'in', ids)
        .where('l.deleted_at', 'is', null)
        .execute();
      return rows.map((row) => ({ ...presentAccessListEntry(row), listingId: row.listing_id }));
    },
  },
});
