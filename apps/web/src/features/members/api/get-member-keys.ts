import { keySchema, type Key } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { memberKeys } from './query-keys';

/** GET user/{id}/keys (admin): the keys a person holds. */
export async function getMemberKeys(userId: string): Promise<Key[]> {
  return keySchema.array().parse(await api.get<unknown>(`user/${encodeURIComponent(userId)}/keys`));
}

export const memberKeysQueryOptions = (userId: string) =>
  queryOptions({ queryKey: memberKeys.keys(userId), queryFn: () => getMemberKeys(userId) });

export function useMemberKeys(userId: string) {
  return useQuery(memberKeysQueryOptions(userId));
}
