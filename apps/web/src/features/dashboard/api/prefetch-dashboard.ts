import type { ScreenReads } from '@/lib/screen-reads';
import { dashboardQueryOptions } from './get-dashboard';
import { waitingRequestsQueryOptions } from './get-waiting-requests';
import { latestMembersQueryOptions } from './latest-members';

/**
 * Starts the dashboard's calls (the portal at a glance, the latest members, the requests waiting
 * for an answer: their card sits above the counts and would push them down if it came later)
 * without waiting for them. The route's loader calls it, so the answers arrive while the screen's
 * code loads rather than after it (docs/decisions.md, "First load"); the screen then finds them in
 * the cache.
 */
export const prefetchDashboard: ScreenReads = (client) => {
  void client.prefetchQuery(dashboardQueryOptions());
  void client.prefetchQuery(latestMembersQueryOptions());
  void client.prefetchQuery(waitingRequestsQueryOptions());
};
