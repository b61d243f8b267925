import { supportSessionSchema } from '@latchkey/shared';
import { paths } from '@/config/paths';
import { api } from '@/lib/api-client';
import { getValidToken } from '@/lib/auth-token';
import { landingPath, safeRedirectPath } from '@/lib/safe-redirect';
import { startSession } from '@/lib/session';
import { storage } from '@/lib/storage';
import { keepSupportSession } from '@/lib/support-session';

/**
 * Starts acting as `userId` (superAdmin only; audited by the server): asks for a support token,
 * keeps the staff token and `originUrl` in sessionStorage and makes the support token the
 * session. Answers where to go next (the landing, which picks the person's home).
 */
export async function startSupportSession(userId: string, originUrl: string): Promise<string> {
  const staffToken = getValidToken();
  const origin = safeRedirectPath(originUrl) ?? paths.app.home.href();
  const answer = supportSessionSchema.parse(
    await api.post<unknown>(`user/${encodeURIComponent(userId)}/session`, { originUrl: origin }),
  );
  if (staffToken) {
    keepSupportSession({
      staffToken,
      originUrl: safeRedirectPath(answer.originUrl) ?? origin,
      staffPortal: storage.getPortal(),
      staffPortalContext: storage.getPortalContext(),
    });
  }
  startSession(answer.token);
  return landingPath(null);
}
