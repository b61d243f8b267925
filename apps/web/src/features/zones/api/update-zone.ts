import { zoneSchema, type Zone, type ZoneInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateZones } from './invalidate';

/** POST portal/zone/{id} (admin): change a zone; its locks keep their own time zone. */
export async function updateZone({ zoneId, ...input }: ZoneInput & { zoneId: string }): Promise<Zone> {
  return zoneSchema.parse(await api.post<unknown>(`portal/zone/${encodeURIComponent(zoneId)}`, input));
}

export function useUpdateZone() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateZone, onSuccess: () => invalidateZones(queryClient) });
}
