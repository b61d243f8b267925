import { rfidCardSchema, type RfidCard } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET device/{id}/rfids (admin): the RFID cards that reach a lock, with their holders. */
export async function getDeviceRfids(deviceId: string): Promise<RfidCard[]> {
  return rfidCardSchema.array().parse(await api.get<unknown>(`device/${encodeURIComponent(deviceId)}/rfids`));
}

export const deviceRfidsQueryOptions = (deviceId: string) =>
  queryOptions({ queryKey: deviceKeys.rfids(deviceId), queryFn: () => getDeviceRfids(deviceId) });

export function useDeviceRfids(deviceId: string) {
  return useQuery(deviceRfidsQueryOptions(deviceId));
}
