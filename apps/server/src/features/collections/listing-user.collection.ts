import { idSchema, listingUserSchema } from '@latchkey/shared';
import { z } from 'zod';
import { getListingUsers } from '../listings/listing-users.service';
import { perListing } from './listing-scope';
import { defineCollection } from './registry';

/**
 * `listingUser`: the portal's people who look after a listing (features/listings' users: they get
 * its requests' mail), for admins. Read only here: a person is added and removed on the listing's
 * own REST routes (PUT and DELETE listing/{id}/user/{userId}), which name the listing. The list is
 * one listing's (`listingId`, as GET listing/{id}/users), else every live listing's, each person
 * with the listing (one person may look after several). No `ls`: a record is a (listing, person)
 * pair whose `_id` is the person's, the same for every listing they look after, so a change log
 * naming records by one id could not say which pair changed (taking a person off one listing
 * would read as their leaving all). `idKind` is the listing's: no route of this collection names
 * a record.
 */
export const listingUserCollection = defineCollection({
  name: 'listingUser',
  feature: 'listings',
  idKind: 'listingId',
  record: listingUserSchema.extend({ listingId: z.string() }),
  list: {
    access: 'admin',
    summary:
      "The people who look after a listing with `listingId` (as GET listing/{id}/users), else every listing's",
    filter: z.strictObject({ listingId: idSchema.optional() }),
    handler: (caller, { listingId }) =>
      perListing(caller, listingId, (id) => getListingUsers(caller.db, caller.portalId, id)),
  },
});
