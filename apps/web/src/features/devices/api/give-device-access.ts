import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

export interface DeviceAccessTarget {
  deviceId: string;
  userId: string;
}

/** PUT user/{userId}/device/{deviceId} (admin): give a person direct access to a lock. */
export async function giveDeviceAccess({ deviceId, userId }: DeviceAccessTarget): Promise<void> {
  await api.put<unknown>(`user/${encodeURIComponent(userId)}/device/${encodeURIComponent(deviceId)}`);
}

export function useGiveDeviceAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: giveDeviceAccess, onSuccess: () => invalidatePortalData(queryClient) });
}
