import { zoneDeviceSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { zoneKeys, zonePath } from './query-keys';

/** GET zone/{id}/devices (admin): the locks directly in a zone. */
export async function getZoneDevices(zoneId: string) {
  return zoneDeviceSchema.array().parse(await api.get<unknown>(`${zonePath(zoneId)}/devices`));
}

export const zoneDevicesQueryOptions = (zoneId: string) =>
  queryOptions({ queryKey: zoneKeys.devices(zoneId), queryFn: () => getZoneDevices(zoneId) });

export function useZoneDevices(zoneId: string) {
  return useQuery(zoneDevicesQueryOptions(zoneId));
}
