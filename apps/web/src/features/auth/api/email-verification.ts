import { acceptedSchema, userSummarySchema, type Accepted, type UserSummary } from '@latchkey/shared';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST auth/verify?token=: confirms the address behind a mail link (400 when not valid or used). */
export async function verifyEmail(token: string): Promise<UserSummary> {
  return userSummarySchema.parse(await api.post<unknown>('auth/verify', undefined, { query: { token } }));
}

/**
 * Verifies once per token: a query, not an effect, so a second render (React's strict mode, a
 * remount) does not spend the single-use link twice.
 */
export function useVerifyEmail(token: string) {
  return useQuery({
    queryKey: ['verifyEmail', token],
    queryFn: () => verifyEmail(token),
    enabled: token !== '',
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
}

/** POST auth/activation/{email}: sends the confirmation mail again (the same answer for any address). */
export async function requestActivation(email: string): Promise<Accepted> {
  const address = email.trim().toLowerCase();
  return acceptedSchema.parse(await api.post<unknown>(`auth/activation/${encodeURIComponent(address)}`));
}

export function useRequestActivation() {
  return useMutation({ mutationFn: requestActivation });
}
