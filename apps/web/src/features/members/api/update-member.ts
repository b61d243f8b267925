import { portalMemberSchema, type MemberUpdate } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/** POST portal/user/{id} (admin): change a person's name or role here (409 for the owner's role). */
export async function updateMember({ userId, ...changes }: MemberUpdate & { userId: string }) {
  return portalMemberSchema.parse(
    await api.post<unknown>(`portal/user/${encodeURIComponent(userId)}`, changes),
  );
}

export function useUpdateMember() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateMember, onSuccess: () => invalidatePortalData(queryClient) });
}
