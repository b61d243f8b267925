import {
  rentalCenterSchema,
  rentalCenterStaysPageSchema,
  type RentalCenterStaysQuery,
} from '@latchkey/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type RentalCenterStaysParams = Partial<
  Pick<
    RentalCenterStaysQuery,
    'skip' | 'limit' | 'search' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'
  >
>;

/**
 * Under the listings root: the live channel's `stay.changed` (and a portal switch) refreshes them
 * with the listing screens. Members who look after a listing get no live stay messages (admins
 * only), so the screen also reads again every 30 s.
 */
export const rentalCenterKeys = {
  summary: () => ['listings', 'rentalcenter', 'summary'] as const,
  stays: (params: RentalCenterStaysParams) => ['listings', 'rentalcenter', 'stays', params] as const,
};

export const RENTAL_CENTER_REFRESH_MS = 30_000;

/** GET rentalcenter. */
export function useRentalCenter() {
  return useQuery({
    queryKey: rentalCenterKeys.summary(),
    queryFn: async () => rentalCenterSchema.parse(await api.get<unknown>('rentalcenter')),
    refetchInterval: RENTAL_CENTER_REFRESH_MS,
  });
}

/** GET rentalcenter/stays: a page of the hosted listings' stays. */
export function useRentalCenterStays(params: RentalCenterStaysParams) {
  return useQuery({
    queryKey: rentalCenterKeys.stays(params),
    queryFn: async () =>
      rentalCenterStaysPageSchema.parse(
        await api.get<unknown>('rentalcenter/stays', { query: { ...params } }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: RENTAL_CENTER_REFRESH_MS,
  });
}
