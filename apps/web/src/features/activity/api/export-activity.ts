import type { ActivityFilters } from '@latchkey/shared';
import { api } from '@/lib/api-client';

/**
 * GET portal/activity/export (admin): the feed with the same filters as CSV (newest first, at most
 * 10,000 rows), asked through the API client so it carries the session and the acting portal.
 */
export async function exportActivityCsv(filters: ActivityFilters): Promise<string> {
  const body = await api.get<unknown>('portal/activity/export', {
    query: { ...filters },
    headers: { Accept: 'text/csv' },
    // An export should be fresh, never a cached answer.
    cacheKey: `activity-export-${Date.now()}`,
  });
  if (typeof body !== 'string') throw new Error('The export did not answer CSV.');
  return body;
}
