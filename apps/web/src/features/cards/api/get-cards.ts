import { rfidsPageSchema, type RfidsQuery } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type CardsParams = Partial<
  Pick<RfidsQuery, 'skip' | 'limit' | 'search' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'>
>;

/** GET portal/rfids (admin): one page of the portal's RFID cards, with their holders. */
export async function getCards(params: CardsParams) {
  return rfidsPageSchema.parse(await api.get<unknown>('portal/rfids', { query: { ...params } }));
}

export const cardsQueryOptions = (params: CardsParams) =>
  queryOptions({
    queryKey: ['cards', 'list', params] as const,
    queryFn: () => getCards(params),
    placeholderData: keepPreviousData,
  });

export function useCards(params: CardsParams) {
  return useQuery(cardsQueryOptions(params));
}
