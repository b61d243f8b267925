import { portalContextSchema, type PortalContext } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { storage } from './storage';

/**
 * Acting in another portal (brief §4): the chosen id is stored and sent as the override header
 * on every later call; choosing one's own portal removes the override. Shared by the portal
 * switcher, the settings page's portal list and the invitation screens (accepting an invitation
 * switches to the portal).
 */

/** GET portal/user/portal/current/{id}: the person's place in a portal (403 if they may not act there). */
export async function getCurrentPortalContext(portalId: string): Promise<PortalContext> {
  const answer = await api.get<unknown>(`portal/user/portal/current/${encodeURIComponent(portalId)}`);
  return portalContextSchema.parse(answer);
}

/** Checks that the person may act in `portalId`, then stores (or, for their own portal, clears) the override. */
export async function switchPortal(portalId: string): Promise<PortalContext> {
  const context = await getCurrentPortalContext(portalId);
  if (portalId === storage.getUserData()?.portalOwned) {
    storage.setPortal(null);
    storage.setPortalContext(null);
  } else {
    storage.setPortal(portalId);
    storage.setPortalContext(context);
  }
  return context;
}

/** Removes the override: calls act in the person's own portal again. */
export function clearPortalOverride(): void {
  storage.setPortal(null);
  storage.setPortalContext(null);
}

/** Switching as a mutation: cached answers belong to the old portal, so they are all dropped. */
export function useSwitchPortal() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchPortal,
    onSuccess: async () => {
      api.clearCache();
      await queryClient.invalidateQueries();
    },
  });
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
