import { invitationSchema, type Invitation } from '@latchkey/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST user/inviteFetchUser (public): the invitation behind a mail link; 400 when the link is not valid. */
export async function getInvitation(token: string): Promise<Invitation> {
  return invitationSchema.parse(await api.post<unknown>('user/inviteFetchUser', { token }));
}

export const invitationQueryKey = (token: string) => ['invitation', token] as const;

export function useInvitation(token: string) {
  return useQuery({
    queryKey: invitationQueryKey(token),
    queryFn: () => getInvitation(token),
    enabled: token !== '',
    staleTime: Infinity,
    retry: false,
  });
}
