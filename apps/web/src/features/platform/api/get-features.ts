import { systemFeaturesSchema, type FeatureFlag } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { isSignedIn } from '@/lib/auth-token';
import { storage } from '@/lib/storage';

/**
 * GET system/features: the features switched on where the signed-in person acts (the brief's
 * features state). Read with the session when a signed-in layout loads; the navigation hides the
 * entries of features that are off, and their screens say so.
 */
export async function getFeatures() {
  return systemFeaturesSchema.parse(await api.get<unknown>('system/features'));
}

export const featuresQueryOptions = () =>
  queryOptions({
    // Keyed by the portal acted in: switching portals reads that portal's features.
    queryKey: ['features', storage.getPortal()] as const,
    queryFn: getFeatures,
    staleTime: 60_000,
  });

export function useFeatures() {
  return useQuery({ ...featuresQueryOptions(), enabled: () => isSignedIn() });
}

/** Whether a feature is on; true while the list is unknown (the server refuses what is off anyway). */
export function featureIsOn(
  enabled: readonly FeatureFlag[] | undefined,
  feature: FeatureFlag | undefined,
): boolean {
  return !feature || !enabled || enabled.includes(feature);
}
