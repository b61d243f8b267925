import { portalDashboardSchema, type PortalDashboard } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * GET portal/dashboard (admin): the portal, its counts and the locks that need attention; with a
 * zone (features/zones), the lock counts and lists are that zone's.
 */
export async function getDashboard(zoneId?: string): Promise<PortalDashboard> {
  return portalDashboardSchema.parse(
    await api.get<unknown>('portal/dashboard', zoneId ? { query: { zoneId } } : {}),
  );
}

export const dashboardQueryOptions = (zoneId?: string) =>
  queryOptions({
    queryKey: zoneId ? ['portal', 'dashboard', { zoneId }] : ['portal', 'dashboard'],
    queryFn: () => getDashboard(zoneId),
    placeholderData: keepPreviousData,
  });

export function useDashboard(zoneId?: string) {
  return useQuery(dashboardQueryOptions(zoneId));
}
