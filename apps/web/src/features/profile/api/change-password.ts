import { tokenResponseSchema, type PasswordChange, type TokenResponse } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { storage } from '@/lib/storage';

/**
 * POST auth/password, sealed. The server revokes every other session and answers a new token,
 * which replaces the stored one at once (the old one no longer works).
 */
export async function changePassword(input: PasswordChange): Promise<TokenResponse> {
  const answer = tokenResponseSchema.parse(await api.post<unknown>('auth/password', input, { sealed: true }));
  storage.setAuthToken(answer.token);
  api.clearCache();
  return answer;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
