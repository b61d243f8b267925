import { keysPageSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { memberKeys } from './query-keys';

/** The most keys the "Hand over a key" picker offers (GET portal/keys?limit=200&sortBy=name). */
export const KEY_OPTIONS_LIMIT = 200;

/**
 * GET portal/keys (admin): the portal's keys by name, to hand one to a person. The list cannot be
 * asked for unheld keys only: the picker leaves the held ones out, and filters as one types.
 */
export async function getKeyOptions() {
  return keysPageSchema.parse(
    await api.get<unknown>('portal/keys', { query: { limit: KEY_OPTIONS_LIMIT, sortBy: 'name' } }),
  );
}

export const keyOptionsQueryOptions = () =>
  queryOptions({ queryKey: memberKeys.keyOptions(), queryFn: getKeyOptions });

export function useKeyOptions() {
  return useQuery(keyOptionsQueryOptions());
}
