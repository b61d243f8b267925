import { acceptedSchema, tokenResponseSchema, type Accepted, type TokenResponse } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST auth/resetPassword/{email}: the same answer (202) whether or not the account exists. */
export async function requestPasswordReset(email: string): Promise<Accepted> {
  const address = email.trim().toLowerCase();
  return acceptedSchema.parse(await api.post<unknown>(`auth/resetPassword/${encodeURIComponent(address)}`));
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}

/** The link a reset came from: `/auth/reset?token=` (current) or `/reset/{resetToken}` (legacy). */
export type ResetLink = { kind: 'token'; token: string } | { kind: 'legacy'; resetToken: string };

/**
 * POST auth/reset {token, password} or auth/legacyReset {resetToken, password}, sealed: the new
 * password; every other session ends and the answer signs the person in.
 */
export async function resetPassword(link: ResetLink, password: string): Promise<TokenResponse> {
  const answer =
    link.kind === 'token'
      ? await api.post<unknown>('auth/reset', { token: link.token, password }, { sealed: true })
      : await api.post<unknown>(
          'auth/legacyReset',
          { resetToken: link.resetToken, password },
          { sealed: true },
        );
  return tokenResponseSchema.parse(answer);
}

export function useResetPassword() {
  return useMutation({
    mutationFn: ({ link, password }: { link: ResetLink; password: string }) => resetPassword(link, password),
  });
}
