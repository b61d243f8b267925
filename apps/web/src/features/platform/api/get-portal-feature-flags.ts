import { featureFlagStateSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';

const flagListSchema = z.object({ flags: z.array(featureFlagStateSchema) });

/** GET system/portals/{portalId}/featureFlags (platform staff): a portal's flags and its overrides. */
export async function getPortalFeatureFlags(portalId: string) {
  return flagListSchema.parse(
    await api.get<unknown>(`system/portals/${encodeURIComponent(portalId)}/featureFlags`),
  ).flags;
}

export const portalFeatureFlagsQueryOptions = (portalId: string) =>
  queryOptions({
    queryKey: ['platform', 'portalFeatureFlags', portalId] as const,
    queryFn: () => getPortalFeatureFlags(portalId),
  });

export function usePortalFeatureFlags(portalId: string | null) {
  return useQuery({ ...portalFeatureFlagsQueryOptions(portalId ?? ''), enabled: portalId !== null });
}
