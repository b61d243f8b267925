import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import type { DeviceAccessTarget } from './give-device-access';

/** DELETE user/{userId}/device/{deviceId} (admin): end a person's direct access (group access stays). */
export async function removeDeviceAccess({ deviceId, userId }: DeviceAccessTarget): Promise<void> {
  await api.delete<unknown>(`user/${encodeURIComponent(userId)}/device/${encodeURIComponent(deviceId)}`);
}

export function useRemoveDeviceAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeDeviceAccess, onSuccess: () => invalidatePortalData(queryClient) });
}
