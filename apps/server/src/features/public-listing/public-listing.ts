import type { PublicListing } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { publicReviewsOf } from '../reviews/reviews.service';
import { publicListingWithoutReviews } from '../stays/stay-requests.service';

/**
 * GET listing/{id}/public: the request page (stays) with the listing's published reviews (reviews),
 * composed here so that the stays' services import nothing of reviews, which stands on the stays' rows.
 */
export async function getPublicListing(db: Database, listingId: string): Promise<PublicListing> {
  const { listing, page } = await publicListingWithoutReviews(db, listingId);
  return { ...page, reviews: await publicReviewsOf(db, listing.portal_id, listing.id) };
}
