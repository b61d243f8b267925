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

/**
 * A listing-scoped list whose records carry their listing: `read` one listing's records, for the
 * listing the filter names or every live one, each record with its `listingId`.
 */
export async function perListing<T extends object>(
  caller: CollectionCaller,
  listingId: string | undefined,
  read: (listingId: string) => Promise<T[]>,
): Promise<{ items: (T & { listingId: string })[]; total: number }> {
  const items: (T & { listingId: string })[] = [];
  for (const listing of await listingsInScope(caller, listingId)) {
    items.push(...(await read(listing.id)).map((record) => ({ ...record, listingId: listing.id })));
  }
  return { items, total: items.length };
}
