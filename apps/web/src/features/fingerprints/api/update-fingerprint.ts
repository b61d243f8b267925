import { fingerprintSchema, type Fingerprint, type FingerprintUpdate } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { fingerprintChanged } from './fingerprint-changed';
import { fingerprintPath } from './query-keys';

/** POST portal/fingerprint/{id} (admin): the finger, label and validity (not the template or lock). */
export async function updateFingerprint({
  fingerprintId,
  ...input
}: FingerprintUpdate & { fingerprintId: string }): Promise<Fingerprint> {
  return fingerprintSchema.parse(await api.post<unknown>(fingerprintPath(fingerprintId), input));
}

export function useUpdateFingerprint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFingerprint,
    onSuccess: (fingerprint) => fingerprintChanged(queryClient, fingerprint),
  });
}
