import { fingerprintSchema, type Fingerprint } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { fingerprintChanged } from './fingerprint-changed';
import { fingerprintPath } from './query-keys';

interface LinkInput {
  fingerprintId: string;
  userId: string;
}

/**
 * PUT portal/fingerprint/{id}/user/{userId} (admin): the finger belongs to someone else (a mix-up at
 * enrolment). 400 when that person cannot reach the fingerprint's lock.
 */
export async function linkFingerprintUser({ fingerprintId, userId }: LinkInput): Promise<Fingerprint> {
  return fingerprintSchema.parse(
    await api.put<unknown>(`${fingerprintPath(fingerprintId)}/user/${encodeURIComponent(userId)}`),
  );
}

export function useLinkFingerprintUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: linkFingerprintUser,
    onSuccess: (fingerprint) => fingerprintChanged(queryClient, fingerprint),
  });
}
