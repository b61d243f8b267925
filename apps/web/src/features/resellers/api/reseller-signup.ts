import { tokenResponseSchema, type ResellerSignup, type TokenResponse } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST reseller/signup, sealed: a new person with a reseller account. Answers a token (201). */
export async function resellerSignup(input: ResellerSignup): Promise<TokenResponse> {
  return tokenResponseSchema.parse(await api.post<unknown>('reseller/signup', input, { sealed: true }));
}

export function useResellerSignup() {
  return useMutation({ mutationFn: resellerSignup });
}
