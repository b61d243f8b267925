import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

export interface LockAccessTarget {
  userId: string;
  deviceId: string;
}

/** PUT user/{userId}/device/{deviceId} (admin): give a person direct access to a lock. */
export async function giveLockAccess({ userId, deviceId }: LockAccessTarget): Promise<void> {
  await api.put<unknown>(`user/${encodeURIComponent(userId)}/device/${encodeURIComponent(deviceId)}`);
}

export function useGiveLockAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: giveLockAccess, onSuccess: () => invalidatePortalData(queryClient) });
}
