import { portalMemberSchema } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

interface SetMemberStatusInput {
  userId: string;
  status: 'active' | 'suspended';
}

/**
 * POST portal/user/{id}/active | /suspended (admin). A suspended person can no longer open any lock
 * here; the owner and oneself cannot be suspended (409).
 */
export async function setMemberStatus({ userId, status }: SetMemberStatusInput) {
  return portalMemberSchema.parse(
    await api.post<unknown>(`portal/user/${encodeURIComponent(userId)}/${status}`),
  );
}

export function useSetMemberStatus() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setMemberStatus, onSuccess: () => invalidatePortalData(queryClient) });
}
