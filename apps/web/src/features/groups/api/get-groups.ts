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

/** The most groups a picker offers (by name). */
export const GROUP_OPTIONS_LIMIT = 200;

/** The portal's groups by name (up to 200), to choose from when inviting someone. */
export const groupOptionsQueryOptions = () =>
  queryOptions({
    queryKey: groupKeys.options(),
    queryFn: () => getGroups({ limit: GROUP_OPTIONS_LIMIT, sortBy: 'name' }),
  });

export function useGroupOptions(enabled = true) {
  return useQuery({ ...groupOptionsQueryOptions(), enabled });
}
