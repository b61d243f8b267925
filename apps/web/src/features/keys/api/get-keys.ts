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

/** The most keys the "Hand over a key" picker offers (GET portal/keys?limit=200&sortBy=name). */
export const KEY_OPTIONS_LIMIT = 200;

/**
 * The portal's keys by name, to hand one to a person. The list cannot be asked for unheld keys
 * only: the picker leaves the held ones out, and filters as one types.
 */
export const keyOptionsQueryOptions = () =>
  queryOptions({
    queryKey: keyKeys.options(),
    queryFn: () => getKeys({ limit: KEY_OPTIONS_LIMIT, sortBy: 'name' }),
  });

export function useKeyOptions() {
  return useQuery(keyOptionsQueryOptions());
}
