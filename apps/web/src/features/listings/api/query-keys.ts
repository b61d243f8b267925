import type { ListingsQuery, ReviewsQuery, StaysQuery } from '@latchkey/shared';

export type ListingsParams = Partial<
  Pick<ListingsQuery, 'skip' | 'limit' | 'search' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'>
>;
export type StaysParams = Partial<
  Pick<StaysQuery, 'skip' | 'limit' | 'search' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'>
>;
export type ReviewsParams = Partial<
  Pick<ReviewsQuery, 'skip' | 'limit' | 'search' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'>
>;

/** Query keys of the listings feature: everything about one listing sits under its detail key. */
export const listingKeys = {
  all: ['listings'] as const,
  list: (params: ListingsParams) => ['listings', 'list', params] as const,
  categories: () => ['listings', 'categories'] as const,
  detail: (listingId: string) => ['listings', 'detail', listingId] as const,
  stays: (listingId: string, params: StaysParams) =>
    ['listings', 'detail', listingId, 'stays', params] as const,
  stay: (listingId: string, stayId: string) => ['listings', 'detail', listingId, 'stay', stayId] as const,
  shareToken: (listingId: string) => ['listings', 'detail', listingId, 'shareToken'] as const,
  landing: (deviceId: string) => ['listings', 'landing', deviceId] as const,
  // R2: calendars, iCal feeds and reviews sit under the listing, so stay.changed refreshes them.
  calendar: (listingId: string, from: string, to: string) =>
    ['listings', 'detail', listingId, 'calendar', from, to] as const,
  ical: (listingId: string) => ['listings', 'detail', listingId, 'ical'] as const,
  reviews: (listingId: string, params: ReviewsParams) =>
    ['listings', 'detail', listingId, 'reviews', params] as const,
};

export const listingPath = (listingId: string) => `listing/${encodeURIComponent(listingId)}`;
export const stayPath = (listingId: string, stayId: string) =>
  `device/${encodeURIComponent(listingId)}/request/${encodeURIComponent(stayId)}`;
