import { groupUserSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET device/{id}/possibleUsers (admin): members who have no access to a lock yet. */
export async function getDevicePossibleUsers(deviceId: string) {
  return groupUserSchema
    .array()
    .parse(await api.get<unknown>(`device/${encodeURIComponent(deviceId)}/possibleUsers`));
}

export const devicePossibleUsersQueryOptions = (deviceId: string) =>
  queryOptions({
    queryKey: deviceKeys.possibleUsers(deviceId),
    queryFn: () => getDevicePossibleUsers(deviceId),
  });

export function useDevicePossibleUsers(deviceId: string) {
  return useQuery(devicePossibleUsersQueryOptions(deviceId));
}
