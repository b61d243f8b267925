import { groupSchema, type Group, type GroupInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/** POST portal/group (admin): make a group. */
export async function createGroup(input: GroupInput): Promise<Group> {
  return groupSchema.parse(await api.post<unknown>('portal/group', input));
}

export function useCreateGroup() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createGroup, onSuccess: () => invalidatePortalData(queryClient) });
}
