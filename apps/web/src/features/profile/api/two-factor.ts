import {
  twoFactorChangedSchema,
  twoFactorStateSchema,
  type TwoFactorChange,
  type TwoFactorChanged,
  type TwoFactorState,
} from '@latchkey/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sessionQueryKey } from '@/lib/session';

export const twoFactorQueryKey = ['twoFactor'] as const;

/** GET auth/twoFactor: on or off; while off, the secret to scan (otpauth URI and a QR code data URL). */
export async function getTwoFactor(): Promise<TwoFactorState> {
  return twoFactorStateSchema.parse(await api.get<unknown>('auth/twoFactor'));
}

export const twoFactorQueryOptions = () =>
  queryOptions({ queryKey: twoFactorQueryKey, queryFn: getTwoFactor });

export function useTwoFactor() {
  return useQuery(twoFactorQueryOptions());
}

/** POST auth/refreshTwoFactor: a new secret to scan (409 while two-factor sign-in is on). */
export async function refreshTwoFactor(): Promise<TwoFactorState> {
  return twoFactorStateSchema.parse(await api.post<unknown>('auth/refreshTwoFactor'));
}

export function useRefreshTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: refreshTwoFactor,
    onSuccess: (state) => queryClient.setQueryData(twoFactorQueryKey, state),
  });
}

/**
 * POST auth/twoFactor, sealed: on with a code from the app (answers the ten recovery codes, shown
 * once), off with the password and a code.
 */
export async function changeTwoFactor(change: TwoFactorChange): Promise<TwoFactorChanged> {
  return twoFactorChangedSchema.parse(await api.post<unknown>('auth/twoFactor', change, { sealed: true }));
}

export function useChangeTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeTwoFactor,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: twoFactorQueryKey }),
        queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      ]);
    },
  });
}
