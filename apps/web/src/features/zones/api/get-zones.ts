import { zonesSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { zoneKeys } from './query-keys';

/** GET portal/zones (members): every zone, each parent before its sub-zones. */
export async function getZones() {
  return zonesSchema.parse(await api.get<unknown>('portal/zones'));
}

export const zonesQueryOptions = () => queryOptions({ queryKey: zoneKeys.list(), queryFn: getZones });

export function useZones(enabled = true) {
  return useQuery({ ...zonesQueryOptions(), enabled });
}
