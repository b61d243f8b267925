import { featureFlagStateSchema, type FeatureFlagInput, type FeatureFlagState } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { featuresQueryOptions } from './get-features';
import { portalFeatureFlagsQueryOptions } from './get-portal-feature-flags';

const flagListSchema = z.object({ flags: z.array(featureFlagStateSchema) });

/** POST system/portals/{portalId}/featureFlags (platform staff): a portal's override (null: follow the deployment). */
export async function setPortalFeatureFlag(
  portalId: string,
  input: FeatureFlagInput,
): Promise<FeatureFlagState[]> {
  return flagListSchema.parse(
    await api.post<unknown>(`system/portals/${encodeURIComponent(portalId)}/featureFlags`, input),
  ).flags;
}

export function useSetPortalFeatureFlag(portalId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: FeatureFlagInput) => setPortalFeatureFlag(portalId, input),
    onSuccess: (flags) => {
      queryClient.setQueryData(portalFeatureFlagsQueryOptions(portalId).queryKey, flags);
      void queryClient.invalidateQueries({ queryKey: featuresQueryOptions().queryKey.slice(0, 1) });
    },
  });
}
