import { zoneSchema, type Zone, type ZoneInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateZones } from './invalidate';

/** POST portal/zone (admin): make a zone. */
export async function createZone(input: ZoneInput): Promise<Zone> {
  return zoneSchema.parse(await api.post<unknown>('portal/zone', input));
}

export function useCreateZone() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createZone, onSuccess: () => invalidateZones(queryClient) });
}
