import { scopedUserSchema, type ScopedUser } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { memberKeys } from './query-keys';

/** GET portal/scopedUsers (admin): people of the portal matching a search, for pickers (at most 20). */
export async function getScopedUsers(search: string): Promise<ScopedUser[]> {
  return scopedUserSchema
    .array()
    .parse(
      await api.get<unknown>('portal/scopedUsers', { query: { search: search || undefined, limit: 20 } }),
    );
}

export const scopedUsersQueryOptions = (search: string) =>
  queryOptions({
    queryKey: memberKeys.scoped(search),
    queryFn: () => getScopedUsers(search),
    placeholderData: keepPreviousData,
  });

export function useScopedUsers(search: string) {
  return useQuery(scopedUsersQueryOptions(search));
}
