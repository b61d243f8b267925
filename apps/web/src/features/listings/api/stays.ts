import { staySchema, staysPageSchema, type Stay, type StayAction } from '@latchkey/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listingKeys, listingPath, stayPath, type StaysParams } from './query-keys';

/** GET listing/{id}/request (admin): a page of a listing's requests and stays. */
export function useStays(listingId: string, params: StaysParams) {
  return useQuery({
    queryKey: listingKeys.stays(listingId, params),
    queryFn: async () =>
      staysPageSchema.parse(
        await api.get<unknown>(`${listingPath(listingId)}/request`, { query: { ...params } }),
      ),
    placeholderData: keepPreviousData,
  });
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
