import { deviceSchema, type Device } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET portal/device/{id} (admin): one lock. */
export async function getDevice(deviceId: string): Promise<Device> {
  return deviceSchema.parse(await api.get<unknown>(`portal/device/${encodeURIComponent(deviceId)}`));
}

export const deviceQueryOptions = (deviceId: string) =>
  queryOptions({ queryKey: deviceKeys.detail(deviceId), queryFn: () => getDevice(deviceId) });

export function useDevice(deviceId: string) {
  return useQuery(deviceQueryOptions(deviceId));
}
