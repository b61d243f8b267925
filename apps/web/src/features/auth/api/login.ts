import { tokenResponseSchema, type TokenResponse } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { getSystemType } from '@/lib/system-type';

export interface LoginInput {
  email: string;
  password: string;
  /** The area being signed in to: the operator portal ('app') or the basic-user area ('user'). */
  scope?: 'app' | 'user';
}

/** POST auth/secure/login, sealed; the system type comes from the host name. */
export async function login({ email, password, scope = 'app' }: LoginInput): Promise<TokenResponse> {
  const answer = await api.post<unknown>(
    'auth/secure/login',
    { email: email.trim().toLowerCase(), password, scope, systemType: getSystemType() },
    { sealed: true },
  );
  return tokenResponseSchema.parse(answer);
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
