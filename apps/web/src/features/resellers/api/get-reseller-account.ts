import { resellerAccountSchema, type ResellerAccount } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { resellerKeys } from './query-keys';

/** GET reseller: the signed-in person's reseller account and its customers (404 without one). */
export async function getResellerAccount(): Promise<ResellerAccount> {
  return resellerAccountSchema.parse(await api.get<unknown>('reseller'));
}

export const resellerAccountQueryOptions = () =>
  queryOptions({ queryKey: resellerKeys.account(), queryFn: getResellerAccount, retry: false });

export function useResellerAccount() {
  return useQuery(resellerAccountQueryOptions());
}
