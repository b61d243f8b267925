import { fingerprintSchema, type Fingerprint, type FingerprintCreate } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/**
 * POST portal/fingerprint (admin): record a finger enrolled at a lock for a person. 409 when the
 * template id is already used at that lock; 400 when the person cannot reach the lock.
 */
export async function recordFingerprint(input: FingerprintCreate): Promise<Fingerprint> {
  return fingerprintSchema.parse(await api.post<unknown>('portal/fingerprint', input));
}

export function useRecordFingerprint() {
  const queryClient = useQueryClient();
  // The lock's fingerprint list and who can open it change too.
  return useMutation({ mutationFn: recordFingerprint, onSuccess: () => invalidatePortalData(queryClient) });
}
