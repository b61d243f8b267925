import { groupDeviceSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { groupKeys, groupPath } from './query-keys';

/** GET group/{id}/devices (admin): the locks a group opens. */
export async function getGroupDevices(groupId: string) {
  return groupDeviceSchema.array().parse(await api.get<unknown>(`${groupPath(groupId)}/devices`));
}

export const groupDevicesQueryOptions = (groupId: string) =>
  queryOptions({ queryKey: groupKeys.devices(groupId), queryFn: () => getGroupDevices(groupId) });

export function useGroupDevices(groupId: string) {
  return useQuery(groupDevicesQueryOptions(groupId));
}
