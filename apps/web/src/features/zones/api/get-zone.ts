import { zoneSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { zoneKeys } from './query-keys';

/** GET portal/zone/{id}: one zone with its lock counts. */
export async function getZone(zoneId: string) {
  return zoneSchema.parse(await api.get<unknown>(`portal/zone/${encodeURIComponent(zoneId)}`));
}

export const zoneQueryOptions = (zoneId: string) =>
  queryOptions({ queryKey: zoneKeys.detail(zoneId), queryFn: () => getZone(zoneId) });

export function useZone(zoneId: string) {
  return useQuery(zoneQueryOptions(zoneId));
}
