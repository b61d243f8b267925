import { devicesPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keyKeys } from './query-keys';

const OPTIONS_LIMIT = 50;

/** GET portal/devices?search= (admin): the portal's locks by name, to link to a key. */
export async function searchLocks(search: string) {
  return devicesPageSchema.parse(
    await api.get<unknown>('portal/devices', {
      query: { search: search.trim() || undefined, limit: OPTIONS_LIMIT, sortBy: 'name' },
    }),
  );
}

export const lockOptionsQueryOptions = (search: string) =>
  queryOptions({
    queryKey: keyKeys.lockOptions(search.trim()),
    queryFn: () => searchLocks(search),
    placeholderData: keepPreviousData,
  });

export function useLockOptions(search: string) {
  return useQuery(lockOptionsQueryOptions(search));
}
