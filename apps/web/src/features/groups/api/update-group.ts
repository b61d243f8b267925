import { groupSchema, type Group, type GroupInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import { groupKeys } from './query-keys';

/** POST portal/group/{id} (admin): save a group's name and description. */
export async function updateGroup({ groupId, ...input }: GroupInput & { groupId: string }): Promise<Group> {
  return groupSchema.parse(await api.post<unknown>(`portal/group/${encodeURIComponent(groupId)}`, input));
}

export function useUpdateGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateGroup,
    onSuccess: async (group) => {
      queryClient.setQueryData(groupKeys.detail(group._id), group);
      // Group names show on locks and people too.
      await invalidatePortalData(queryClient);
    },
  });
}
