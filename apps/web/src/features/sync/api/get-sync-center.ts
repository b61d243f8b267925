import { syncCenterPageSchema, type SyncCenterQuery } from '@latchkey/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type SyncCenterParams = Partial<
  Pick<SyncCenterQuery, 'skip' | 'limit' | 'search' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'>
>;

/** GET portal/sync (admin): every lock's credential sync, paged. */
export async function getSyncCenter(params: SyncCenterParams) {
  return syncCenterPageSchema.parse(await api.get<unknown>('portal/sync', { query: params }));
}

export function useSyncCenter(params: SyncCenterParams) {
  return useQuery({
    // Under the devices root: lock status and changes from the live channel refresh it.
    queryKey: ['devices', 'syncCenter', params],
    queryFn: () => getSyncCenter(params),
    placeholderData: keepPreviousData,
    // Locks confirm within seconds: keep it current while it is open.
    refetchInterval: 10_000,
  });
}
