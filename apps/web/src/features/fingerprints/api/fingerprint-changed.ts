import type { Fingerprint } from '@latchkey/shared';
import type { QueryClient } from '@tanstack/react-query';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { fingerprintKeys } from './query-keys';

/** After a change answered with the saved fingerprint: show it, refresh the holder's and lock's screens. */
export async function fingerprintChanged(queryClient: QueryClient, fingerprint: Fingerprint) {
  queryClient.setQueryData(fingerprintKeys.detail(fingerprint._id), fingerprint);
  await invalidatePortalData(queryClient, (key) =>
    keyStartsWith(key, fingerprintKeys.detail(fingerprint._id)),
  );
}
