import type { QueryClient } from '@tanstack/react-query';
import type { ScreenReads } from '@/lib/screen-reads';
import { currentMonth, listingCalendarQueryOptions, listingIcalQueryOptions } from './calendar';
import { listingQueryOptions } from './listings';
import { FIRST_STAYS_VIEW, staysQueryOptions } from './stays';
import { listingTabOf } from './listing-tabs';

/**
 * Starts the reads the listing page shows first (the listing, and on the Stays & calendar tab its
 * upcoming stays, this month's calendar and its calendar feeds) without waiting for them: the
 * route's loader calls it while the page's code loads (docs/decisions.md, "First load"), and the
 * page finds the answers in the cache.
 */
export const prefetchListingPage: ScreenReads = (client: QueryClient, { params, url }) => {
  const listingId = params.listingId;
  if (!listingId) return;
  void client.prefetchQuery(listingQueryOptions(listingId));
  if (listingTabOf(url.searchParams) === 'stays') {
    void client.prefetchQuery(staysQueryOptions(listingId, FIRST_STAYS_VIEW));
    void client.prefetchQuery(listingCalendarQueryOptions(listingId, currentMonth()));
    void client.prefetchQuery(listingIcalQueryOptions(listingId));
  }
};
