import { featureFlagStateSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

const flagListSchema = z.object({ flags: z.array(featureFlagStateSchema) });

/** GET system/featureFlags (platform staff): every flag's value for the whole deployment. */
export async function getFeatureFlags() {
  return flagListSchema.parse(await api.get<unknown>('system/featureFlags')).flags;
}

export const featureFlagsQueryOptions = () =>
  queryOptions({ queryKey: ['platform', 'featureFlags'] as const, queryFn: getFeatureFlags });

export function useFeatureFlags() {
  return useQuery(featureFlagsQueryOptions());
}
