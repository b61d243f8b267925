import { activityPageSchema, type ActivityPage } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keyKeys } from './query-keys';

/** How much of a key's history the key page shows: its newest entries. */
export const KEY_HISTORY_LIMIT = 100;

/** GET keys/{id}/history (admin): changes to a key and the lock events where it was used, newest first. */
export async function getKeyHistory(keyId: string): Promise<ActivityPage> {
  return activityPageSchema.parse(
    await api.get<unknown>(`keys/${encodeURIComponent(keyId)}/history`, {
      query: { limit: KEY_HISTORY_LIMIT },
    }),
  );
}

export const keyHistoryQueryOptions = (keyId: string) =>
  queryOptions({
    queryKey: keyKeys.history(keyId),
    queryFn: () => getKeyHistory(keyId),
    // Every change to the key adds an entry: show the latest whenever the key is opened.
    staleTime: 0,
  });

export function useKeyHistory(keyId: string) {
  return useQuery(keyHistoryQueryOptions(keyId));
}
