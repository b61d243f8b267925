import { api } from '@/lib/api-client';
import { isSignedIn } from '@/lib/auth-token';
import { endSessionLocally } from '@/lib/session';

/** POST auth/logout: revokes every token of the person (204). */
export function logout(): Promise<void> {
  return api.post<void>('auth/logout');
}

/** Signs out on the server when there is a session, then forgets it here in any case. */
export async function signOut(): Promise<void> {
  if (isSignedIn()) {
    try {
      await logout();
    } catch {
      // Already logged by the client; signing out locally must still happen.
    }
  }
  endSessionLocally();
}
