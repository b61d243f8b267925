import { storage } from './storage';

/** Reads the `exp` claim (seconds since the epoch) of a JWT, or null when there is none. */
export function tokenExpiry(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='));
    const claims = JSON.parse(json) as { exp?: unknown };
    return typeof claims.exp === 'number' && Number.isFinite(claims.exp) ? claims.exp : null;
  } catch {
    return null;
  }
}

/** A token counts only while its `exp` (seconds) is later than now (brief §4–5). */
export function isTokenValid(token: string | null | undefined, nowMs: number = Date.now()): token is string {
  if (!token) return false;
  const exp = tokenExpiry(token);
  return exp !== null && exp > nowMs / 1000;
}

/** The stored token if it is still valid, else null (the person is treated as signed out). */
export function getValidToken(nowMs: number = Date.now()): string | null {
  const token = storage.getAuthToken();
  return isTokenValid(token, nowMs) ? token : null;
}

/** True when a valid token is stored. */
export function isSignedIn(nowMs: number = Date.now()): boolean {
  return getValidToken(nowMs) !== null;
}
