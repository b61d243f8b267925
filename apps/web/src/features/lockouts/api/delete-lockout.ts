import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { lockoutKeys, lockoutPath } from './query-keys';

/** DELETE portal/lockout/{id} (admin): end and forget a lockout; its locks open as before. */
export async function deleteLockout(lockoutId: string): Promise<void> {
  await api.delete<unknown>(lockoutPath(lockoutId));
}

export function useDeleteLockout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteLockout,
    // The lockout's own screen is being left: asking for it again would only answer 404.
    onSuccess: (_, lockoutId) =>
      invalidatePortalData(queryClient, (key) => keyStartsWith(key, lockoutKeys.detail(lockoutId))),
  });
}
