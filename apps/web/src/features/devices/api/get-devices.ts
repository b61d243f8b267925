import { devicesPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys, type DevicesParams } from './query-keys';

/** GET portal/devices (admin): one page of the portal's locks. */
export async function getDevices(params: DevicesParams) {
  return devicesPageSchema.parse(await api.get<unknown>('portal/devices', { query: { ...params } }));
}

export const devicesQueryOptions = (params: DevicesParams) =>
  queryOptions({
    queryKey: deviceKeys.list(params),
    queryFn: () => getDevices(params),
    placeholderData: keepPreviousData,
  });

export function useDevices(params: DevicesParams) {
  return useQuery(devicesQueryOptions(params));
}

/** The most locks a picker offers at once (by name; typing narrows them). */
export const LOCK_OPTIONS_LIMIT = 200;

/** The portal's locks by name, for the lock pickers of every screen. */
export const lockOptionsQueryOptions = (search = '') =>
  queryOptions({
    // Under the devices root: adding, renaming or deleting a lock refreshes every picker.
    queryKey: deviceKeys.options(search.trim()),
    queryFn: () =>
      getDevices({ search: search.trim() || undefined, limit: LOCK_OPTIONS_LIMIT, sortBy: 'name' }),
    placeholderData: keepPreviousData,
  });

export function useLockOptions(search = '') {
  return useQuery(lockOptionsQueryOptions(search));
}
