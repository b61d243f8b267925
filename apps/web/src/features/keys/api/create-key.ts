import { keySchema, type Key, type KeyCreate } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import { keyKeys } from './query-keys';

/** POST portal/keys (admin): a new key, optionally handed to a person and linked to locks (409: number taken). */
export async function createKey(input: KeyCreate): Promise<Key> {
  return keySchema.parse(await api.post<unknown>('portal/keys', input));
}

export function useCreateKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createKey,
    onSuccess: async (key) => {
      queryClient.setQueryData(keyKeys.detail(key._id), key);
      await invalidatePortalData(queryClient);
    },
  });
}
