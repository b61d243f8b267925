import { groupsPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { groupKeys, type GroupsParams } from './query-keys';

/** GET portal/groups (admin): one page of the portal's groups. */
export async function getGroups(params: GroupsParams) {
  return groupsPageSchema.parse(await api.get<unknown>('portal/groups', { query: { ...params } }));
}

export const groupsQueryOptions = (params: GroupsParams) =>
  queryOptions({
    queryKey: groupKeys.list(params),
    queryFn: () => getGroups(params),
    placeholderData: keepPreviousData,
  });

export function useGroups(params: GroupsParams) {
  return useQuery(groupsQueryOptions(params));
}
