import { api } from '@/lib/api-client';

/**
 * GET portal/user/list (admin): every person of the portal with a summary of their access, as CSV
 * (columns USER_LIST_COLUMNS). Asked through the API client, so it carries the session and portal.
 */
export async function exportMembersCsv(): Promise<string> {
  const body = await api.get<unknown>('portal/user/list', {
    headers: { Accept: 'text/csv' },
    // An export should be fresh, never a cached answer.
    cacheKey: `export-${Date.now()}`,
  });
  if (typeof body !== 'string') throw new Error('The export did not answer CSV.');
  return body;
}
