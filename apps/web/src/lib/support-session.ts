import { portalContextSchema, supportSessionSchema, type PortalContext } from '@latchkey/shared';
import { api } from './api-client';
import { getValidToken, isTokenValid } from './auth-token';
import { landingPath, safeRedirectPath, signInPath } from './safe-redirect';
import { endSessionLocally, startSession } from './session';
import { storage } from './storage';

/**
 * Support sessions: platform staff act as a person to help them (POST user/{id}/session). The
 * staff member's own token, portal override and the page they came from are kept in this tab's
 * sessionStorage while the support token is the session, and restored when it ends.
 */

const STORAGE_KEY = 'latchkey.supportSession';

export interface StoredSupportSession {
  /** The staff member's own token, to return to. */
  staffToken: string;
  /** Where the staff member started the session (an app path). */
  originUrl: string;
  staffPortal: string | null;
  staffPortalContext: PortalContext | null;
}

function read(): StoredSupportSession | null {
  try {
    const raw = window.sessionStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<StoredSupportSession>;
    if (typeof value.staffToken !== 'string' || typeof value.originUrl !== 'string') return null;
    const context = portalContextSchema.safeParse(value.staffPortalContext);
    return {
      staffToken: value.staffToken,
      originUrl: value.originUrl,
      staffPortal: typeof value.staffPortal === 'string' ? value.staffPortal : null,
      staffPortalContext: context.success ? context.data : null,
    };
  } catch {
    return null;
  }
}

function write(value: StoredSupportSession | null): void {
  try {
    if (value) window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(value));
    else window.sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // sessionStorage can be disabled: ending the session then signs the staff member out.
  }
}

/** The stored staff side of a support session in this tab, if any. */
export function storedSupportSession(): StoredSupportSession | null {
  return read();
}

/**
 * Starts acting as `userId` (superAdmin only; audited by the server): asks for a support token,
 * keeps the staff token and `originUrl` in sessionStorage and makes the support token the
 * session. Answers where to go next (the landing, which picks the person's home).
 */
export async function startSupportSession(userId: string, originUrl: string): Promise<string> {
  const staffToken = getValidToken();
  const origin = safeRedirectPath(originUrl) ?? '/app';
  const answer = supportSessionSchema.parse(
    await api.post<unknown>(`user/${encodeURIComponent(userId)}/session`, { originUrl: origin }),
  );
  if (staffToken) {
    write({
      staffToken,
      originUrl: safeRedirectPath(answer.originUrl) ?? origin,
      staffPortal: storage.getPortal(),
      staffPortalContext: storage.getPortalContext(),
    });
  }
  startSession(answer.token);
  return landingPath(null);
}

/**
 * Ends the support session: POST auth/logout with the support token (which, for a support
 * token, leaves the person's own sessions alone), then back to the staff member's token and
 * portal. Answers where to go: the stored origin, or sign-in when the staff token has expired.
 */
export async function endSupportSession(): Promise<string> {
  const stored = read();
  try {
    await api.post<void>('auth/logout');
  } catch {
    // The support token may have expired already; it is forgotten here in any case.
  }
  write(null);
  endSessionLocally();
  if (!stored) return '/';
  if (!isTokenValid(stored.staffToken)) return signInPath(stored.originUrl);
  startSession(stored.staffToken);
  if (stored.staffPortal) {
    storage.setPortal(stored.staffPortal);
    storage.setPortalContext(stored.staffPortalContext);
  }
  return landingPath(stored.originUrl);
}
