import { keySchema, type Key } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keyKeys, keyPath } from './query-keys';

/** GET portal/keys/{id} (admin): one key, its holder and locks. */
export async function getKey(keyId: string): Promise<Key> {
  return keySchema.parse(await api.get<unknown>(keyPath(keyId)));
}

export const keyQueryOptions = (keyId: string) =>
  queryOptions({ queryKey: keyKeys.detail(keyId), queryFn: () => getKey(keyId) });

export function useKey(keyId: string) {
  return useQuery(keyQueryOptions(keyId));
}
