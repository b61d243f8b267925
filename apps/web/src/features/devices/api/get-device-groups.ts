import { deviceAccessViaSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

const deviceGroupsSchema = deviceAccessViaSchema.shape.groups;

/** GET portal/device/{id}/groups (admin): the groups that give access to a lock. */
export async function getDeviceGroups(deviceId: string) {
  return deviceGroupsSchema.parse(
    await api.get<unknown>(`portal/device/${encodeURIComponent(deviceId)}/groups`),
  );
}

export const deviceGroupsQueryOptions = (deviceId: string) =>
  queryOptions({ queryKey: deviceKeys.groups(deviceId), queryFn: () => getDeviceGroups(deviceId) });

export function useDeviceGroups(deviceId: string) {
  return useQuery(deviceGroupsQueryOptions(deviceId));
}
