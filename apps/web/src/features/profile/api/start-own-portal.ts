import { portalSchema, type OwnPortalCreate, type Portal } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { clearPortalOverride } from '@/lib/portal-override';

/**
 * POST user/{id}/portal: a person who owns no portal starts their own. They then act in it (their
 * own portal needs no override), so every cached answer of the old portal goes.
 */
export async function startOwnPortal(userId: string, input: OwnPortalCreate): Promise<Portal> {
  return portalSchema.parse(await api.post<unknown>(`user/${encodeURIComponent(userId)}/portal`, input));
}

export function useStartOwnPortal(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OwnPortalCreate) => startOwnPortal(userId, input),
    onSuccess: async () => {
      clearPortalOverride();
      api.clearCache();
      await queryClient.invalidateQueries();
    },
  });
}
