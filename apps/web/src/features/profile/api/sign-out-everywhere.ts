import { useMutation } from '@tanstack/react-query';
import { logout } from '@/features/auth/api/logout';
import { endSessionLocally } from '@/lib/session';

/** POST auth/logout: revokes every token of the person (this device's too), then forgets it here. */
export async function signOutEverywhere(): Promise<void> {
  await logout();
  endSessionLocally();
}

export function useSignOutEverywhere() {
  return useMutation({ mutationFn: signOutEverywhere });
}
