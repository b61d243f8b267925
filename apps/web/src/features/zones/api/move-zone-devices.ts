import { zoneMovedSchema, type ZoneMove, type ZoneMoved } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidateZones } from './invalidate';
import { zonePath } from './query-keys';

/** POST zone/{id}/devices (admin): move locks into a zone (out of any other) and out of it. */
export async function moveZoneDevices({
  zoneId,
  ...move
}: ZoneMove & { zoneId: string }): Promise<ZoneMoved> {
  return zoneMovedSchema.parse(await api.post<unknown>(`${zonePath(zoneId)}/devices`, move));
}

export function useMoveZoneDevices() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: moveZoneDevices, onSuccess: () => invalidateZones(queryClient) });
}
