import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { memberKeys } from './query-keys';

/** DELETE portal/user/{id} (admin): remove a person from the portal (their account stays). */
export async function removeMember(userId: string): Promise<void> {
  await api.delete<unknown>(`portal/user/${encodeURIComponent(userId)}`);
}

export function useRemoveMember() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeMember,
    // The person's screen is being left: asking for it again would only answer 404.
    onSuccess: (_, userId) =>
      invalidatePortalData(queryClient, (key) => keyStartsWith(key, memberKeys.detail(userId))),
  });
}
