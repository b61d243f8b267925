import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { deviceKeys } from './query-keys';

/** DELETE portal/device/{id} (admin): remove a lock; everyone's access to it goes, its history stays. */
export async function deleteDevice(deviceId: string): Promise<void> {
  await api.delete<unknown>(`portal/device/${encodeURIComponent(deviceId)}`);
}

export function useDeleteDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteDevice,
    // The lock's own screen is being left: asking for it again would only answer 404.
    onSuccess: (_, deviceId) =>
      invalidatePortalData(queryClient, (key) => keyStartsWith(key, deviceKeys.detail(deviceId))),
  });
}
