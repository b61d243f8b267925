import { platformPortalDetailSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET system/portals/{portalId} (platform staff): owner, standing, admins, locks, changes, problems. */
export async function getPlatformPortal(portalId: string) {
  return platformPortalDetailSchema.parse(
    await api.get<unknown>(`system/portals/${encodeURIComponent(portalId)}`),
  );
}

export const platformPortalQueryOptions = (portalId: string) =>
  queryOptions({
    queryKey: ['platform', 'portal', portalId] as const,
    queryFn: () => getPlatformPortal(portalId),
  });

export function usePlatformPortal(portalId: string) {
  return useQuery(platformPortalQueryOptions(portalId));
}
