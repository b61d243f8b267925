import { sessionSchema, type Session } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';
import { isSignedIn } from './auth-token';
import { queryClient } from './query-client';
import { storage } from './storage';

/**
 * The signed-in person as GET auth answers it. Every answer also refreshes the stored user
 * data and replaces the stored permission list (brief §3, §6).
 */

export const sessionQueryKey = ['session'] as const;

export async function getSession(): Promise<Session> {
  const session = sessionSchema.parse(await api.get<unknown>('auth'));
  const previous = storage.getUserData();
  storage.setUserData({
    email: session.user.email,
    firstName: session.user.firstName,
    lastName: session.user.lastName,
    portalOwned: session.portalOwned,
    // Read-times belong to the person: keep them across refreshes, drop them for someone else.
    readNotification: previous?.email === session.user.email ? previous.readNotification : {},
  });
  storage.setPermissions(session.permissions);
  return session;
}

export const sessionQueryOptions = () =>
  queryOptions({ queryKey: sessionQueryKey, queryFn: getSession, staleTime: 60_000 });

/** The session, fetched only while a valid token is stored (never right after signing out). */
export function useSession() {
  return useQuery({ ...sessionQueryOptions(), enabled: () => isSignedIn() });
}

/** Starts a session with a fresh token: forgets everything about the previous one. */
export function startSession(token: string): void {
  storage.clearAuth();
  storage.setAuthToken(token);
  api.clearCache();
  queryClient.clear();
}

/** Forgets the session on this device (token, user data, override, cached answers). */
export function endSessionLocally(): void {
  storage.clearAuth();
  api.clearCache();
  queryClient.clear();
}

/** A person's display name, falling back to their email. */
export function displayName(user: { firstName: string; lastName: string; email: string }): string {
  const name = `${user.firstName} ${user.lastName}`.trim();
  return name || user.email;
}
