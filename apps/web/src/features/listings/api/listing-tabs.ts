/*
 * Which tab a screen opens on decides which reads its route starts (prefetch-listing-page.ts), so the
 * tabs are listed here, beside the reads, for the loader to know without the page's code.
 */

/** The listing page's tabs, in their order; the first opens unless the address names another. */
export const LISTING_TABS = ['stays', 'details', 'reviews', 'access'] as const;
export type ListingTab = (typeof LISTING_TABS)[number];

/** The tab `?tab=` names, or the first. */
export function listingTabOf(search: URLSearchParams): ListingTab {
  const named = search.get('tab');
  return LISTING_TABS.find((tab) => tab === named) ?? LISTING_TABS[0];
}
