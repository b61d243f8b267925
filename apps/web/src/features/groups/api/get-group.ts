import { groupSchema, type Group } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { groupKeys } from './query-keys';

/** GET portal/group/{id} (admin): one group. */
export async function getGroup(groupId: string): Promise<Group> {
  return groupSchema.parse(await api.get<unknown>(`portal/group/${encodeURIComponent(groupId)}`));
}

export const groupQueryOptions = (groupId: string) =>
  queryOptions({ queryKey: groupKeys.detail(groupId), queryFn: () => getGroup(groupId) });

export function useGroup(groupId: string) {
  return useQuery(groupQueryOptions(groupId));
}
