import { deviceSyncSchema, type DeviceSync } from '@latchkey/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET device/{id}/sync (admin): how far the lock's credential set got, credential by credential. */
export async function getDeviceSync(deviceId: string): Promise<DeviceSync> {
  return deviceSyncSchema.parse(await api.get<unknown>(`device/${encodeURIComponent(deviceId)}/sync`));
}

export function useDeviceSync(deviceId: string) {
  return useQuery({
    queryKey: deviceKeys.sync(deviceId),
    queryFn: () => getDeviceSync(deviceId),
    // A lock confirms within seconds of a change: keep the tab current while it is open.
    refetchInterval: 5000,
  });
}
