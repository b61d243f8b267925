import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { fingerprintKeys, fingerprintPath } from './query-keys';

/** DELETE portal/fingerprint/{id} (admin): the lock stops accepting that finger. */
export async function deleteFingerprint(fingerprintId: string): Promise<void> {
  await api.delete<unknown>(fingerprintPath(fingerprintId));
}

export function useDeleteFingerprint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFingerprint,
    // The fingerprint's own screen is being left: asking for it again would only answer 404.
    onSuccess: (_, fingerprintId) =>
      invalidatePortalData(queryClient, (key) => keyStartsWith(key, fingerprintKeys.detail(fingerprintId))),
  });
}
