import { portalDashboardSchema, type PortalDashboard } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET portal/dashboard (admin): the portal, its counts and the locks that need attention. */
export async function getDashboard(): Promise<PortalDashboard> {
  return portalDashboardSchema.parse(await api.get<unknown>('portal/dashboard'));
}

export const dashboardQueryOptions = () =>
  queryOptions({ queryKey: ['portal', 'dashboard'], queryFn: getDashboard });

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}
