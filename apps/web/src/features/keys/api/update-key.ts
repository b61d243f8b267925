import { keySchema, type Key, type KeyUpdate } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keyChanged } from './change-key';
import { keyPath } from './query-keys';

/** POST portal/keys/{id} (admin): a key's name, number (physical keys) and validity (409: number taken). */
export async function updateKey({ keyId, ...input }: KeyUpdate & { keyId: string }): Promise<Key> {
  return keySchema.parse(await api.post<unknown>(keyPath(keyId), input));
}

export function useUpdateKey() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateKey, onSuccess: (key) => keyChanged(queryClient, key) });
}
