import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import type { GroupUserTarget } from './add-group-user';
import { groupPath } from './query-keys';

/** DELETE group/{id}/user/{userId} (admin): take a person out of a group. */
export async function removeGroupUser({ groupId, userId }: GroupUserTarget): Promise<void> {
  await api.delete<unknown>(`${groupPath(groupId)}/user/${encodeURIComponent(userId)}`);
}

export function useRemoveGroupUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeGroupUser, onSuccess: () => invalidatePortalData(queryClient) });
}
