import type { Schedule } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/** Who at which lock. */
export interface AccessTarget {
  deviceId: string;
  userId: string;
}

/** A grant; with `schedule` (null: at any time) it is set in the same change (Undo of a removal). */
export interface AccessGrant extends AccessTarget {
  schedule?: Schedule | null;
}

/** PUT user/{userId}/device/{deviceId} (admin): give a person direct access to a lock. */
export async function giveDirectAccess({ deviceId, userId, schedule }: AccessGrant): Promise<void> {
  await api.put<unknown>(
    `user/${encodeURIComponent(userId)}/device/${encodeURIComponent(deviceId)}`,
    schedule === undefined ? undefined : { schedule },
  );
}

/**
 * Shared by the lock's People tab and the person's Locks card. The grant shows on the lock, the
 * person, their groups and the change log: every portal-data root refreshes.
 */
export function useGiveDirectAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: giveDirectAccess, onSuccess: () => invalidatePortalData(queryClient) });
}
