import { lockStayGuestSchema, type LockStayGuest } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET portal/device/{id}/stayGuests (admin): the guests whose stays open the lock, now or later. */
export async function getDeviceStayGuests(deviceId: string): Promise<LockStayGuest[]> {
  return lockStayGuestSchema
    .array()
    .parse(await api.get<unknown>(`portal/device/${encodeURIComponent(deviceId)}/stayGuests`));
}

export const deviceStayGuestsQueryOptions = (deviceId: string) =>
  queryOptions({ queryKey: deviceKeys.stayGuests(deviceId), queryFn: () => getDeviceStayGuests(deviceId) });

export function useDeviceStayGuests(deviceId: string) {
  return useQuery(deviceStayGuestsQueryOptions(deviceId));
}
