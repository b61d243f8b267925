import { portalContextSchema, type PortalContext } from '@latchkey/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET portal/user/portal/{id}: the signed-in person's membership in a portal, invitations included (404 if none). */
export async function getPortalInvitation(portalId: string): Promise<PortalContext> {
  return portalContextSchema.parse(
    await api.get<unknown>(`portal/user/portal/${encodeURIComponent(portalId)}`),
  );
}

export const portalInvitationQueryKey = (portalId: string) => ['portalInvitation', portalId] as const;

export function usePortalInvitation(portalId: string) {
  return useQuery({
    queryKey: portalInvitationQueryKey(portalId),
    queryFn: () => getPortalInvitation(portalId),
    retry: false,
  });
}

export interface PortalInvitationAnswer {
  status: 'accepted' | 'declined';
  portalId: string;
}

/** POST portal/user/portal/{id}/accept | /decline; accepting answers 403 until the email is confirmed. */
export async function answerPortalInvitation(
  portalId: string,
  accept: boolean,
): Promise<PortalInvitationAnswer> {
  const answer = await api.post<{ status: unknown; portalId: unknown }>(
    `portal/user/portal/${encodeURIComponent(portalId)}/${accept ? 'accept' : 'decline'}`,
  );
  return {
    status: answer.status === 'declined' ? 'declined' : 'accepted',
    portalId: typeof answer.portalId === 'string' ? answer.portalId : portalId,
  };
}

export function useAnswerPortalInvitation() {
  return useMutation({
    mutationFn: ({ portalId, accept }: { portalId: string; accept: boolean }) =>
      answerPortalInvitation(portalId, accept),
  });
}
