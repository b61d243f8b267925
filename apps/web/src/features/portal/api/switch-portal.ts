import type { PortalContext } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { clearPortalOverride } from '@/lib/portal-override';
import { storage } from '@/lib/storage';
import { getPortalContext } from './get-portal-context';

/**
 * Switching the portal one acts in (brief §4), shared by the portal switcher, the settings page's
 * portal list, the reseller page and the invitation screens (accepting an invitation switches to
 * the portal). Removing the override is `lib/portal-override.ts`.
 */

/** Checks that the person may act in `portalId`, then stores (or, for their own portal, clears) the override. */
export async function switchPortal(portalId: string): Promise<PortalContext> {
  const context = await getPortalContext(portalId);
  if (portalId === storage.getUserData()?.portalOwned) {
    clearPortalOverride();
  } else {
    storage.setPortal(portalId);
    storage.setPortalContext(context);
  }
  return context;
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
