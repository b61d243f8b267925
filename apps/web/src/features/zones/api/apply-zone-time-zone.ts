import { zoneTimeZoneAppliedSchema } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateZones } from './invalidate';
import { zonePath } from './query-keys';

/** POST zone/{id}/applyTimeZone (admin): every lock directly in the zone takes the zone's time zone. */
export async function applyZoneTimeZone(zoneId: string) {
  return zoneTimeZoneAppliedSchema.parse(await api.post<unknown>(`${zonePath(zoneId)}/applyTimeZone`));
}

export function useApplyZoneTimeZone() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: applyZoneTimeZone, onSuccess: () => invalidateZones(queryClient) });
}
