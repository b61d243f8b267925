import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import type { AccessTarget } from './give-direct-access';

/** DELETE user/{userId}/device/{deviceId} (admin): end a person's direct access (group access stays). */
export async function removeDirectAccess({ deviceId, userId }: AccessTarget): Promise<void> {
  await api.delete<unknown>(`user/${encodeURIComponent(userId)}/device/${encodeURIComponent(deviceId)}`);
}

/** Shared by the lock's People tab and the person's Locks card; every portal-data root refreshes. */
export function useRemoveDirectAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeDirectAccess, onSuccess: () => invalidatePortalData(queryClient) });
}
