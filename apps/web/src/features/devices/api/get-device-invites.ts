import { deviceInviteSchema, type DeviceInvite } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET device/{id}/invite (admin): a lock's guest invites, newest first. */
export async function getDeviceInvites(deviceId: string): Promise<DeviceInvite[]> {
  return deviceInviteSchema
    .array()
    .parse(await api.get<unknown>(`device/${encodeURIComponent(deviceId)}/invite`));
}

export const deviceInvitesQueryOptions = (deviceId: string) =>
  queryOptions({ queryKey: deviceKeys.invites(deviceId), queryFn: () => getDeviceInvites(deviceId) });

export function useDeviceInvites(deviceId: string) {
  return useQuery(deviceInvitesQueryOptions(deviceId));
}
