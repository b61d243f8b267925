import { scopedUserSchema, type ScopedUser } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET portal/scopedUsers (admin): people of the portal matching a search, for pickers (at most 20). */
export async function getScopedUsers(search: string): Promise<ScopedUser[]> {
  return scopedUserSchema
    .array()
    .parse(
      await api.get<unknown>('portal/scopedUsers', { query: { search: search || undefined, limit: 20 } }),
    );
}

/**
 * Under the members' root (`['members']`), so a change to people (one of the portal-data roots)
 * refreshes the pickers too.
 */
export const scopedUsersKey = (search: string) => ['members', 'scoped', search] as const;

export const scopedUsersQueryOptions = (search: string) =>
  queryOptions({
    queryKey: scopedUsersKey(search),
    queryFn: () => getScopedUsers(search),
    placeholderData: keepPreviousData,
  });

export function useScopedUsers(search: string) {
  return useQuery(scopedUsersQueryOptions(search));
}
