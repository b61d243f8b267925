import { keySchema, type Key } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

interface HandOverInput {
  keyId: string;
  userId: string;
}

/** PUT keys/{id}/user/{userId} (admin): hand a key to this person. */
export async function handOverKey({ keyId, userId }: HandOverInput): Promise<Key> {
  return keySchema.parse(
    await api.put<unknown>(`keys/${encodeURIComponent(keyId)}/user/${encodeURIComponent(userId)}`),
  );
}

export function useHandOverKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: handOverKey, onSuccess: () => invalidatePortalData(queryClient) });
}
