import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './api-client';
import { storage } from './storage';

/**
 * Acting in another portal (brief §4): the chosen id is stored and sent as the override header
 * on every later call; choosing one's own portal removes the override. Switching to a portal
 * asks the server first: the portal feature's `api/switch-portal.ts`.
 */

/** Removes the override: calls act in the person's own portal again. */
export function clearPortalOverride(): void {
  storage.setPortal(null);
  storage.setPortalContext(null);
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
