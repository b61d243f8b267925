import { deviceAccessSchema, type DeviceAccess } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/**
 * GET portal/device/{id}/access?at= (admin): who can open a lock at an instant (ISO date-time
 * with offset; without one, now) and, for everyone else, why not.
 */
export async function getDeviceAccess(deviceId: string, at: string | null): Promise<DeviceAccess> {
  return deviceAccessSchema.parse(
    await api.get<unknown>(`portal/device/${encodeURIComponent(deviceId)}/access`, {
      query: { at: at ?? undefined },
    }),
  );
}

export const deviceAccessQueryOptions = (deviceId: string, at: string | null) =>
  queryOptions({
    queryKey: deviceKeys.access(deviceId, at),
    queryFn: () => getDeviceAccess(deviceId, at),
    placeholderData: keepPreviousData,
    // "Now" moves on: ask again when the tab is opened and every minute while it is open.
    staleTime: 0,
    refetchInterval: at === null ? 60_000 : false,
  });

export function useDeviceAccess(deviceId: string, at: string | null) {
  return useQuery(deviceAccessQueryOptions(deviceId, at));
}
