import { groupDeviceSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { groupKeys, groupPath } from './query-keys';

/** GET group/{id}/possibleDevices (admin): locks not in a group yet. */
export async function getGroupPossibleDevices(groupId: string) {
  return groupDeviceSchema.array().parse(await api.get<unknown>(`${groupPath(groupId)}/possibleDevices`));
}

export const groupPossibleDevicesQueryOptions = (groupId: string) =>
  queryOptions({
    queryKey: groupKeys.possibleDevices(groupId),
    queryFn: () => getGroupPossibleDevices(groupId),
  });

export function useGroupPossibleDevices(groupId: string) {
  return useQuery(groupPossibleDevicesQueryOptions(groupId));
}
