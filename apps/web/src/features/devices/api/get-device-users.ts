import { deviceUserSchema, type DeviceUser } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET device/{id}/users (admin): who may use a lock, how (direct, groups) and when. */
export async function getDeviceUsers(deviceId: string): Promise<DeviceUser[]> {
  return deviceUserSchema
    .array()
    .parse(await api.get<unknown>(`device/${encodeURIComponent(deviceId)}/users`));
}

export const deviceUsersQueryOptions = (deviceId: string) =>
  queryOptions({ queryKey: deviceKeys.users(deviceId), queryFn: () => getDeviceUsers(deviceId) });

export function useDeviceUsers(deviceId: string) {
  return useQuery(deviceUsersQueryOptions(deviceId));
}
