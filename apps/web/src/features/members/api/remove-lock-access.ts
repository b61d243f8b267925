import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import type { LockAccessTarget } from './give-lock-access';

/** DELETE user/{userId}/device/{deviceId} (admin): end a person's direct access (group access stays). */
export async function removeLockAccess({ userId, deviceId }: LockAccessTarget): Promise<void> {
  await api.delete<unknown>(`user/${encodeURIComponent(userId)}/device/${encodeURIComponent(deviceId)}`);
}

export function useRemoveLockAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeLockAccess, onSuccess: () => invalidatePortalData(queryClient) });
}
