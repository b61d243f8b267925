import { paths } from '@/config/paths';
import { isTokenValid } from '@/lib/auth-token';
import { landingPath, signInPath } from '@/lib/safe-redirect';
import { endSessionLocally, startSession } from '@/lib/session';
import { storage } from '@/lib/storage';
import { keepSupportSession, storedSupportSession } from '@/lib/support-session';
import { logout } from './logout';

/**
 * Ends the support session: POST auth/logout with the support token (which, for a support
 * token, leaves the person's own sessions alone), then back to the staff member's token and
 * portal. Answers where to go: the stored origin, or sign-in when the staff token has expired.
 */
export async function endSupportSession(): Promise<string> {
  const stored = storedSupportSession();
  try {
    await logout();
  } catch {
    // The support token may have expired already; it is forgotten here in any case.
  }
  keepSupportSession(null);
  endSessionLocally();
  if (!stored) return paths.root.href();
  if (!isTokenValid(stored.staffToken)) return signInPath(stored.originUrl);
  startSession(stored.staffToken);
  if (stored.staffPortal) {
    storage.setPortal(stored.staffPortal);
    storage.setPortalContext(stored.staffPortalContext);
  }
  return landingPath(stored.originUrl);
}
