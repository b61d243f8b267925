import { staySchema, staysPageSchema, type Stay, type StayAction } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listingKeys, listingPath, stayPath, type StaysParams } from './query-keys';

/** How many requests and stays a page of the listing's list shows. */
export const STAYS_PAGE_SIZE = 10;

/** What the list of requests and stays shows: a page, and a state or a time filter. */
export interface StaysView {
  page: number;
  state: string | null;
  when: string | null;
}

/** The list as a listing opens: upcoming stays, first page. */
export const FIRST_STAYS_VIEW: StaysView = { page: 1, state: null, when: 'upcoming' };

function staysParams({ page, state, when }: StaysView): StaysParams {
  const filter = state
    ? { filterBy: 'state' as const, filterValue: state }
    : when
      ? { filterBy: 'when' as const, filterValue: when }
      : {};
  return { skip: (page - 1) * STAYS_PAGE_SIZE, limit: STAYS_PAGE_SIZE, sortBy: 'startDate', ...filter };
}

/** GET listing/{id}/request (admin): a page of a listing's requests and stays. */
export const staysQueryOptions = (listingId: string, view: StaysView) => {
  const params = staysParams(view);
  return queryOptions({
    queryKey: listingKeys.stays(listingId, params),
    queryFn: async () =>
      staysPageSchema.parse(
        await api.get<unknown>(`${listingPath(listingId)}/request`, { query: { ...params } }),
      ),
  });
};

export function useStays(listingId: string, view: StaysView) {
  return useQuery({ ...staysQueryOptions(listingId, view), placeholderData: keepPreviousData });
}

/**
 * How often a stay waiting for its locks is read again. The live channel (`stay.changed`) shows a
 * confirmation at once; this only covers a connection that is down.
 */
export const WAITING_REFRESH_MS = 10_000;

/** GET device/{listingId}/request/{reqId}: read again now and then while the locks have not all confirmed. */
export function useStay(listingId: string, stayId: string) {
  return useQuery({
    queryKey: listingKeys.stay(listingId, stayId),
    queryFn: async (): Promise<Stay> => staySchema.parse(await api.get<unknown>(stayPath(listingId, stayId))),
    refetchInterval: (query) => (query.state.data?.accessState === 'waiting' ? WAITING_REFRESH_MS : false),
  });
}

/** POST device/{listingId}/request/{reqId}: approve, decline, cancel, change or resend. */
export function useStayAction(listingId: string, stayId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: StayAction) =>
      staySchema.parse(await api.post<unknown>(stayPath(listingId, stayId), action)),
    onSuccess: async (stay) => {
      queryClient.setQueryData(listingKeys.stay(listingId, stayId), stay);
      await queryClient.invalidateQueries({ queryKey: listingKeys.detail(listingId) });
      await queryClient.invalidateQueries({ queryKey: ['listings', 'list'] });
    },
  });
}
