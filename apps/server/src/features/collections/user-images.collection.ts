import { idSchema, rentalImageSchema, rentalImageUpdateSchema } from '@latchkey/shared';
import { z } from 'zod';
import { AppError } from '../../base/http/errors';
import type { UserImageRow } from '../../db/schema';
import { deleteImage, editImage } from '../listings/listing-images.service';
import { presentImages } from '../listings/listings.presenter';
import { findImage, listImagesOf } from '../listings/listings.repository';
import { requireListing } from '../listings/listings.service';
import { listingsInScope } from './listing-scope';
import { defineCollection, type CollectionCaller } from './registry';

const imageRecordSchema = rentalImageSchema.extend({ listingId: z.string() });

/** An image as a listing shows it (GET listing/{id}: `images`), with its listing. */
function present(caller: CollectionCaller, image: UserImageRow) {
  return { ...presentImages(caller.portalId, [image])[0]!, listingId: image.owner_id };
}

/**
 * The listing image `id` and its listing: 404 for another portal's, a lock's arrival picture (the
 * same table, under the lock's own routes) and a deleted listing's, as the listing's routes answer.
 */
async function listingImage(caller: CollectionCaller, id: string) {
  const image = await findImage(caller.db, caller.portalId, id);
  if (!image || image.owner_type !== 'listing') throw AppError.notFound('Image');
  await requireListing(caller.db, caller.portalId, image.owner_id);
  return image;
}

/**
 * `userImages`: the listings' images (features/listings), for admins, as each listing's page
 * shows them (in their order, with their addresses). A save changes an image's alt text or
 * position and DELETE removes it, through the feature's own service (positions close up, audited,
 * its bytes go). An upload stays on POST listing/{id}/image: its body is the image's bytes, not
 * JSON. `ls` hears of images uploaded, changed and removed (migration 0048; not the locks'
 * arrival pictures, kept in the same table); a deleted listing's images are no longer read (as
 * `get`) but not tombstoned: the listing's own log says it went.
 */
export const userImagesCollection = defineCollection({
  name: 'userImages',
  feature: 'listings',
  idKind: 'listingImageId',
  record: imageRecordSchema,
  get: {
    access: 'admin',
    summary: "An image of one of the portal's listings",
    handler: async (caller, id) => present(caller, await listingImage(caller, id)),
  },
  list: {
    access: 'admin',
    summary: "A listing's images in their order with `listingId` (as GET listing/{id}), else every listing's",
    filter: z.strictObject({ listingId: idSchema.optional() }),
    handler: async (caller, { listingId }) => {
      const listings = await listingsInScope(caller, listingId);
      const images = await listImagesOf(
        caller.db,
        caller.portalId,
        'listing',
        listings.map((listing) => listing.id),
      );
      // Listing by listing (in the order of the scope), each in its own order.
      const items = listings.flatMap((listing) =>
        images.filter((image) => image.owner_id === listing.id).map((image) => present(caller, image)),
      );
      return { items, total: items.length };
    },
  },
  save: {
    access: 'admin',
    summary: "Change an image's alt text or position (as POST listing/{id}/image/{imageId})",
    body: rentalImageUpdateSchema,
    example: { alt: 'Renamed' },
    handler: async (caller, id, body) => {
      const image = await listingImage(caller, id);
      const saved = await editImage(
        caller.db,
        caller.change(),
        { type: 'listing', id: image.owner_id },
        id,
        body,
      );
      return { ...saved, listingId: image.owner_id };
    },
  },
  remove: {
    access: 'admin',
    summary: 'Remove an image; the others close up (as DELETE listing/{id}/image/{imageId})',
    handler: async (caller, id) => {
      const image = await listingImage(caller, id);
      await deleteImage(
        caller.db,
        caller.app.rental.images,
        caller.change(),
        { type: 'listing', id: image.owner_id },
        id,
      );
    },
  },
  ls: { access: 'admin', summary: "Listings' images uploaded, changed and removed since a cursor" },
});
