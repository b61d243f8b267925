import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keyStartsWith } from '@/lib/query-roots';
import { invalidateZones } from './invalidate';
import { zoneKeys } from './query-keys';

/** DELETE portal/zone/{id} (admin): delete a zone; its locks become unzoned. */
export async function deleteZone(zoneId: string): Promise<void> {
  await api.delete<unknown>(`portal/zone/${encodeURIComponent(zoneId)}`);
}

export function useDeleteZone() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteZone,
    // The zone's screen is being left: asking for it again would only answer 404.
    onSuccess: (_, zoneId) =>
      invalidateZones(queryClient, (key) => keyStartsWith(key, zoneKeys.detail(zoneId))),
  });
}
