import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { keyKeys, keyPath } from './query-keys';

/** DELETE portal/keys/{id} (admin): retire a key (lost, destroyed); it opens nothing, its history stays. */
export async function retireKey(keyId: string): Promise<void> {
  await api.delete<unknown>(keyPath(keyId));
}

export function useRetireKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retireKey,
    // The key's own screen is being left: asking for it again would only answer 404.
    onSuccess: (_, keyId) =>
      invalidatePortalData(queryClient, (key) => keyStartsWith(key, keyKeys.detail(keyId))),
  });
}
