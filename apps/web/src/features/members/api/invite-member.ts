import { userInvitedSchema, type UserInvite } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/**
 * POST user/invite (admin): invites a person by email with a role, groups and locks. They join as
 * 'invited' and get a mail with a link; a person without an account chooses a password there.
 * 409 when they are in the portal (or invited) already.
 */
export async function inviteMember(input: UserInvite) {
  return userInvitedSchema.parse(await api.post<unknown>('user/invite', input));
}

export function useInviteMember() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: inviteMember, onSuccess: () => invalidatePortalData(queryClient) });
}

/** POST user/re-invite/{id} (admin): the invitation again, with a new link and period; 409 once accepted. */
export async function reinviteMember(userId: string) {
  return userInvitedSchema.parse(await api.post<unknown>(`user/re-invite/${encodeURIComponent(userId)}`));
}

export function useReinviteMember() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: reinviteMember, onSuccess: () => invalidatePortalData(queryClient) });
}
