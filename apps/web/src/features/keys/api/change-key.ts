import type { Key } from '@latchkey/shared';
import type { QueryClient } from '@tanstack/react-query';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { keyQueryOptions } from './get-key';
import { keyHistoryQueryOptions } from './get-key-history';

/**
 * After a change answered with the saved key: show it at once, refresh the rest of the portal's
 * data (the holder's and the locks' screens show keys too) and the key's history.
 */
export async function keyChanged(queryClient: QueryClient, key: Key): Promise<void> {
  const detail = keyQueryOptions(key._id).queryKey;
  const history = keyHistoryQueryOptions(key._id).queryKey;
  queryClient.setQueryData(detail, key);
  await invalidatePortalData(
    queryClient,
    (queryKey) => keyStartsWith(queryKey, detail) && !keyStartsWith(queryKey, history),
  );
}
