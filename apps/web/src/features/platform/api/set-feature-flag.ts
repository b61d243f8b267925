import { featureFlagStateSchema, type FeatureFlagInput, type FeatureFlagState } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { featureFlagsQueryOptions } from './get-feature-flags';
import { featuresQueryOptions } from './get-features';

const flagListSchema = z.object({ flags: z.array(featureFlagStateSchema) });

/** POST system/featureFlags (platform staff): switch a feature for the deployment (null: its default). */
export async function setFeatureFlag(input: FeatureFlagInput): Promise<FeatureFlagState[]> {
  return flagListSchema.parse(await api.post<unknown>('system/featureFlags', input)).flags;
}

export function useSetFeatureFlag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setFeatureFlag,
    onSuccess: (flags) => {
      queryClient.setQueryData(featureFlagsQueryOptions().queryKey, flags);
      // Every portal follows the deployment unless it overrides: their lists and the app's own state.
      void queryClient.invalidateQueries({ queryKey: ['platform', 'portalFeatureFlags'] });
      void queryClient.invalidateQueries({ queryKey: featuresQueryOptions().queryKey.slice(0, 1) });
    },
  });
}
