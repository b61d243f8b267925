import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { invalidatePortalData } from '@/lib/query-roots';
import { zoneKeys } from './query-keys';

/**
 * After a zone change: the zones, and the portal's data (a move changes the lock list's zone
 * filter, a zone lockout who can open). `except` keeps a deleted zone's queries out.
 */
export async function invalidateZones(queryClient: QueryClient, except?: (key: QueryKey) => boolean) {
  await Promise.all([
    queryClient.invalidateQueries({
      queryKey: zoneKeys.all,
      predicate: except ? (query) => !except(query.queryKey) : undefined,
    }),
    invalidatePortalData(queryClient),
  ]);
}
