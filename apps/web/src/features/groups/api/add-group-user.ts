import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import { groupPath } from './query-keys';

export interface GroupUserTarget {
  groupId: string;
  userId: string;
}

/** PUT group/{id}/user/{userId} (admin): add a person to a group. */
export async function addGroupUser({ groupId, userId }: GroupUserTarget): Promise<void> {
  await api.put<unknown>(`${groupPath(groupId)}/user/${encodeURIComponent(userId)}`);
}

export function useAddGroupUser() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addGroupUser, onSuccess: () => invalidatePortalData(queryClient) });
}
