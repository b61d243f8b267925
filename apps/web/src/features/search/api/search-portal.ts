import { searchAnswerSchema, type SearchAnswer } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The shortest term the server searches (searchQuerySchema): fewer characters ask nothing. */
export const MIN_SEARCH_LENGTH = 3;

/** GET portal/search (admin): a few of each kind of the portal's records matching `q`. */
export async function searchPortal(q: string): Promise<SearchAnswer> {
  return searchAnswerSchema.parse(await api.get<unknown>('portal/search', { query: { q } }));
}

export const searchQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ['search', q] as const,
    queryFn: () => searchPortal(q),
    // While the next term's answer comes, the last one stays on screen instead of flashing empty.
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });

export function usePortalSearch(q: string) {
  const term = q.trim();
  return useQuery({ ...searchQueryOptions(term), enabled: term.length >= MIN_SEARCH_LENGTH });
}
