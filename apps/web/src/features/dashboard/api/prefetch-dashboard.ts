import type { QueryClient } from '@tanstack/react-query';
import { dashboardQueryOptions } from './get-dashboard';
import { latestMembersQueryOptions } from './latest-members';

/**
 * Starts the dashboard's calls (the portal at a glance, the latest members) without waiting for
 * them. The route's loader calls it, so the answers arrive while the screen's code loads rather
 * than after it (docs/decisions.md, "First load"); the screen then finds them in the cache.
 */
export function prefetchDashboard(client: QueryClient): void {
  void client.prefetchQuery(dashboardQueryOptions());
  void client.prefetchQuery(latestMembersQueryOptions());
}
