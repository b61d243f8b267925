import type { PortalContext } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { storage } from '@/lib/storage';
import { getPortalContext } from './get-portal-context';

/**
 * Acting in another portal (brief §4): the chosen id is stored and sent as the override header
 * on every later call; choosing one's own portal (or "Back to my portal") removes the override.
 * Either way cached answers belong to the old portal, so they are all dropped.
 */
export async function switchPortal(portalId: string): Promise<PortalContext> {
  const context = await getPortalContext(portalId);
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
