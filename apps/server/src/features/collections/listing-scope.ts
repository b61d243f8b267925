import type { ListingRow } from '../../db/schema';
import { listListings } from '../listings/listings.repository';
import { requireListing } from '../listings/listings.service';
import type { CollectionCaller } from './registry';

/** How many listings one read of the portal's listings takes (the list query's own limit). */
const PAGE = 200;

/**
 * The live listings a listing-scoped collection's list covers (reviews, listingAccessList,
 * listingUser, calendarEvent, userImages): the one its filter names, through the feature's own
 * check (another portal's or a deleted listing is a 404), else every live listing of the portal,
 * by title, as GET listing pages them.
 */
export async function listingsInScope(caller: CollectionCaller, listingId?: string): Promise<ListingRow[]> {
  if (listingId) return [await requireListing(caller.db, caller.portalId, listingId)];
  const listings: ListingRow[] = [];
  for (let skip = 0; ; skip += PAGE) {
    const { rows } = await listListings(caller.db, caller.portalId, {
      skip,
      limit: PAGE,
      sortBy: 'title',
      descending: false,
    });
    listings.push(...rows);
    if (rows.length < PAGE) return listings;
  }
}
