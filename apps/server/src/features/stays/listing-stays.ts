import { localWallTime } from '@latchkey/shared';
import type { DomainEventListener } from '../../base/events/domain-events';
import { AppError } from '../../base/http/errors';
import { listingTimeZone } from '../listings/listing-clock';
import '../listings/listing-events';
import { listLocksOfListing } from '../listings/listings.repository';
import { lockCapacities, loadStayFacts, reconcileStayAccess, refuseOverCapacity } from './stay-access';
import { listCurrentStays } from './stays.repository';

// What a change to a listing means for its stays: the listings feature announces it
// (listings/listing-events.ts) and these listeners answer, in the same transaction.

/**
 * Brings the access of a listing's current and upcoming stays in line with the listing (its locks,
 * times, share-lock settings and access list); refuses (409) when a lock's memory would overflow.
 */
export const followListingAccess: DomainEventListener<'ListingAccessChanged'> = async (
  trx,
  { listing, touch, now },
) => {
  const locks = await listLocksOfListing(trx, listing.portal_id, listing.id);
  const today = localWallTime(now, listingTimeZone(locks)).date;
  let changed = false;
  for (const stay of await listCurrentStays(trx, listing.portal_id, listing.id, today)) {
    if (await reconcileStayAccess(trx, touch, await loadStayFacts(trx, stay), now)) changed = true;
  }
  if (changed) refuseOverCapacity(await lockCapacities(trx, listing.portal_id, locks));
};

/** A listing with stays that have not ended is not deleted: cancel them first (409). */
export const refuseDeletingListingWithStays: DomainEventListener<'ListingDeleting'> = async (
  trx,
  { listing, now },
) => {
  const locks = await listLocksOfListing(trx, listing.portal_id, listing.id);
  const today = localWallTime(now, listingTimeZone(locks)).date;
  const current = await listCurrentStays(trx, listing.portal_id, listing.id, today);
  if (current.length > 0) {
    throw AppError.conflict(
      `${listing.title} has ${current.length} stay${current.length === 1 ? '' : 's'} that ha${current.length === 1 ? 's' : 've'} not ended; cancel ${current.length === 1 ? 'it' : 'them'} first`,
    );
  }
};
