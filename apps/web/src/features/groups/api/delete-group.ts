import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { groupKeys } from './query-keys';

/** DELETE portal/group/{id} (admin): delete a group; the access it gave ends, direct access stays. */
export async function deleteGroup(groupId: string): Promise<void> {
  await api.delete<unknown>(`portal/group/${encodeURIComponent(groupId)}`);
}

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteGroup,
    // The group's screen is being left: asking for it again would only answer 404.
    onSuccess: (_, groupId) =>
      invalidatePortalData(queryClient, (key) => keyStartsWith(key, groupKeys.detail(groupId))),
  });
}
