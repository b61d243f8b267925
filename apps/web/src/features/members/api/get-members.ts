import { portalUsersPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { memberKeys, type MembersParams } from './query-keys';

/** GET portal/users (admin): one page of the portal's people. */
export async function getMembers(params: MembersParams) {
  return portalUsersPageSchema.parse(await api.get<unknown>('portal/users', { query: { ...params } }));
}

export const membersQueryOptions = (params: MembersParams) =>
  queryOptions({
    queryKey: memberKeys.list(params),
    queryFn: () => getMembers(params),
    placeholderData: keepPreviousData,
  });

export function useMembers(params: MembersParams) {
  return useQuery(membersQueryOptions(params));
}
