import { tokenResponseSchema, type CreateAccountInput, type TokenResponse } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST auth/create, sealed: a new person and the portal they own. Answers a token (201). */
export async function createAccount(input: CreateAccountInput): Promise<TokenResponse> {
  const answer = await api.post<unknown>('auth/create', input, { sealed: true });
  return tokenResponseSchema.parse(answer);
}

export function useCreateAccount() {
  return useMutation({ mutationFn: createAccount });
}
