import type { Key } from '@latchkey/shared';
import type { QueryClient } from '@tanstack/react-query';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { keyKeys } from './query-keys';

/**
 * After a change answered with the saved key: show it at once, refresh the rest of the portal's
 * data (the holder's and the locks' screens show keys too) and the key's history.
 */
export async function keyChanged(queryClient: QueryClient, key: Key): Promise<void> {
  queryClient.setQueryData(keyKeys.detail(key._id), key);
  await invalidatePortalData(
    queryClient,
    (queryKey) =>
      keyStartsWith(queryKey, keyKeys.detail(key._id)) && !keyStartsWith(queryKey, keyKeys.history(key._id)),
  );
}
