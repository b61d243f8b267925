import { zoneDeviceSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { zoneKeys, zonePath } from './query-keys';

/** GET zone/{id}/possibleDevices (admin): the locks not in the zone (unzoned or in another). */
export async function getZonePossibleDevices(zoneId: string) {
  return zoneDeviceSchema.array().parse(await api.get<unknown>(`${zonePath(zoneId)}/possibleDevices`));
}

export const zonePossibleDevicesQueryOptions = (zoneId: string) =>
  queryOptions({ queryKey: zoneKeys.possibleDevices(zoneId), queryFn: () => getZonePossibleDevices(zoneId) });

export function useZonePossibleDevices(zoneId: string) {
  return useQuery(zonePossibleDevicesQueryOptions(zoneId));
}
