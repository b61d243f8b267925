import {
  loginResponseSchema,
  tokenResponseSchema,
  type LoginResponse,
  type TokenResponse,
  type TwoFactorChallenge,
} from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { getSystemType } from '@/lib/system-type';

export interface LoginInput {
  email: string;
  password: string;
  /** The area being signed in to: the operator portal ('app') or the basic-user area ('user'). */
  scope?: 'app' | 'user';
}

/**
 * POST auth/secure/login, sealed; the system type comes from the host name. Answers a session
 * token, or (two-factor sign-in on) a challenge whose pre-authentication token is good only for
 * POST auth/twoFactorCode.
 */
export async function login({ email, password, scope = 'app' }: LoginInput): Promise<LoginResponse> {
  const answer = await api.post<unknown>(
    'auth/secure/login',
    { email: email.trim().toLowerCase(), password, scope, systemType: getSystemType() },
    { sealed: true },
  );
  return loginResponseSchema.parse(answer);
}

export function isTwoFactorChallenge(answer: LoginResponse): answer is TwoFactorChallenge {
  return 'twoFactorRequired' in answer;
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

export interface TwoFactorCodeInput {
  preAuthToken: string;
  /** 6 digits from the authenticator app, or a recovery code (xxxxx-xxxxx). */
  code: string;
}

/**
 * POST auth/twoFactorCode with the pre-authentication token as the bearer (never the stored
 * session token): the second step of signing in. 400 wrong or used code, 429 too many, 401 expired.
 */
export async function submitTwoFactorCode({
  preAuthToken,
  code,
}: TwoFactorCodeInput): Promise<TokenResponse> {
  const answer = await api.post<unknown>(
    'auth/twoFactorCode',
    { code: code.trim().toLowerCase() },
    { headers: { Authorization: `Bearer ${preAuthToken}` } },
  );
  return tokenResponseSchema.parse(answer);
}

export function useTwoFactorCode() {
  return useMutation({ mutationFn: submitTwoFactorCode });
}
