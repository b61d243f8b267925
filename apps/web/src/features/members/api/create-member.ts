import { memberCreatedSchema, type MemberCreate } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/**
 * POST portal/user (admin): add a person. An existing account is just added; a new one gets the
 * given password, or a generated one answered this once as `initialPassword`.
 */
export async function createMember(input: MemberCreate) {
  return memberCreatedSchema.parse(await api.post<unknown>('portal/user', input));
}

export function useCreateMember() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createMember, onSuccess: () => invalidatePortalData(queryClient) });
}
