import { resellerMineSchema, type ResellerMine } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { resellerKeys } from './query-keys';

/** GET reseller/mine: the signed-in person's reseller account (id and name), or null. */
export async function getOwnReseller(): Promise<ResellerMine> {
  return resellerMineSchema.parse(await api.get<unknown>('reseller/mine'));
}

export const ownResellerQueryOptions = () =>
  queryOptions({ queryKey: resellerKeys.mine(), queryFn: getOwnReseller, staleTime: 5 * 60_000 });

/** Whether the person has a reseller account; false until known (the menu entry then appears). */
export function useHasResellerAccount(enabled = true): boolean {
  const { data } = useQuery({ ...ownResellerQueryOptions(), enabled });
  return Boolean(data?.reseller);
}
