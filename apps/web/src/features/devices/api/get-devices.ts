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
