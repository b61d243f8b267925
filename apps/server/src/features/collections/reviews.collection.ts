import { idSchema, reviewSchema, reviewsQuerySchema, type Review } from '@latchkey/shared';
import { getReview, listReviews } from '../reviews/reviews.service';
import { listingsInScope } from './listing-scope';
import { defineCollection } from './registry';

const compareText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);

/**
 * `reviews`: guests' reviews of the portal's listings (features/reviews), for admins. The list is
 * the host's reviews page's query (GET listing/{id}/review: sorted by date or rating, filtered by
 * state or rating, searched) with the listing as `listingId`; without it, every live listing's,
 * merged in the same order. Answering, hiding and showing a review again stay on the REST route
 * (POST listing/{id}/review/{reviewId}), which names the listing. `ls` hears of reviews written,
 * answered, hidden and shown again (migration 0048); reviews are never deleted, and a deleted
 * listing's are no longer read (as `get`) but not tombstoned: the listing's own log says it went.
 */
export const reviewsCollection = defineCollection({
  name: 'reviews',
  feature: 'reviews',
  idKind: 'reviewId',
  record: reviewSchema,
  get: {
    access: 'admin',
    summary: "A review of one of the portal's listings, as the listing's reviews show it",
    handler: (caller, id) => getReview(caller.db, caller.portalId, id),
  },
  list: {
    access: 'admin',
    summary:
      "A page of reviews: one listing's with `listingId` (as GET listing/{id}/review), else every listing's",
    filter: reviewsQuerySchema.safeExtend({ listingId: idSchema.optional() }),
    handler: async (caller, { listingId, ...query }) => {
      if (listingId) return listReviews(caller.db, caller.portalId, listingId, query);
      // Each listing's first skip + limit reviews in the query's order hold the page: merge them.
      const window = { ...query, skip: 0, limit: query.skip + query.limit };
      const items: Review[] = [];
      let total = 0;
      for (const listing of await listingsInScope(caller)) {
        const page = await listReviews(caller.db, caller.portalId, listing.id, window);
        items.push(...page.items);
        total += page.total;
      }
      // As listReviews orders: by date or rating, then by id, both in the query's direction.
      const byKey =
        query.sortBy === 'rating'
          ? (a: Review, b: Review) => a.rating - b.rating
          : (a: Review, b: Review) => compareText(a.createdAt, b.createdAt);
      const direction = query.descending ? -1 : 1;
      items.sort((a, b) => (byKey(a, b) || compareText(a._id, b._id)) * direction);
      return { items: items.slice(query.skip, query.skip + query.limit), total };
    },
  },
  ls: { access: 'admin', summary: 'Reviews written, answered, hidden and shown again since a cursor' },
});
