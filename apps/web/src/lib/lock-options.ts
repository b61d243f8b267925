import { devicesPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/** The most locks a picker offers at once (by name; typing narrows them). */
export const LOCK_OPTIONS_LIMIT = 200;

/** GET portal/devices?search= (admin): the portal's locks by name, for the lock pickers of every screen. */
export async function searchLocks(search: string) {
  return devicesPageSchema.parse(
    await api.get<unknown>('portal/devices', {
      query: { search: search.trim() || undefined, limit: LOCK_OPTIONS_LIMIT, sortBy: 'name' },
    }),
  );
}

export const lockOptionsQueryOptions = (search = '') =>
  queryOptions({
    // Under the devices root: adding, renaming or deleting a lock refreshes every picker.
    queryKey: ['devices', 'options', search.trim()] as const,
    queryFn: () => searchLocks(search),
    placeholderData: keepPreviousData,
  });

export function useLockOptions(search = '') {
  return useQuery(lockOptionsQueryOptions(search));
}
