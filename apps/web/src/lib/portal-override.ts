import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { safeRedirectPath } from './safe-redirect';
import { storage } from './storage';

/**
 * Acting in another portal (brief §4): the chosen id is stored and sent as the override header
 * on every later call; choosing one's own portal removes the override. Switching to a portal
 * asks the server first: the portal feature's `api/switch-portal.ts`.
 */

// Where "Back to your portal" (the acting banner) returns to: the screen a reseller or platform
// staff member opened a customer's portal from. Kept for this tab only, like a support session.
const RETURN_KEY = 'latchkey.actingReturnTo';

/** Remembers the screen a person leaves to act in another portal (an app path). */
export function rememberActingReturn(path: string): void {
  try {
    window.sessionStorage.setItem(RETURN_KEY, path);
  } catch {
    // Without sessionStorage the banner returns to the role's default screen.
  }
}

/** The remembered screen to return to, if it is a path of this app. */
export function actingReturnPath(): string | null {
  try {
    return safeRedirectPath(window.sessionStorage.getItem(RETURN_KEY));
  } catch {
    return null;
  }
}

/** Removes the override: calls act in the person's own portal again. */
export function clearPortalOverride(): void {
  storage.setPortal(null);
  storage.setPortalContext(null);
  try {
    window.sessionStorage.removeItem(RETURN_KEY);
  } catch {
    // Nothing was kept.
  }
}

export function useClearPortalOverride() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => clearPortalOverride(),
    onSuccess: async () => {
      api.clearCache();
      await queryClient.invalidateQueries();
    },
  });
}
