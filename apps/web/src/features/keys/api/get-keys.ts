import { keysPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { keyKeys, type KeysParams } from './query-keys';

/** GET portal/keys (admin): one page of the portal's keys. */
export async function getKeys(params: KeysParams) {
  return keysPageSchema.parse(await api.get<unknown>('portal/keys', { query: { ...params } }));
}

export const keysQueryOptions = (params: KeysParams) =>
  queryOptions({
    queryKey: keyKeys.list(params),
    queryFn: () => getKeys(params),
    placeholderData: keepPreviousData,
  });

export function useKeys(params: KeysParams) {
  return useQuery(keysQueryOptions(params));
}
