import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/** Who at which lock. */
export interface AccessTarget {
  deviceId: string;
  userId: string;
}

/** PUT user/{userId}/device/{deviceId} (admin): give a person direct access to a lock. */
export async function giveDirectAccess({ deviceId, userId }: AccessTarget): Promise<void> {
  await api.put<unknown>(`user/${encodeURIComponent(userId)}/device/${encodeURIComponent(deviceId)}`);
}

/**
 * Shared by the lock's People tab and the person's Locks card. The grant shows on the lock, the
 * person, their groups and the change log: every portal-data root refreshes.
 */
export function useGiveDirectAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: giveDirectAccess, onSuccess: () => invalidatePortalData(queryClient) });
}
