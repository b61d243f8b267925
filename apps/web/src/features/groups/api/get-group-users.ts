import { groupUserSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { groupKeys, groupPath } from './query-keys';

/** GET group/{id}/users (admin): the people in a group. */
export async function getGroupUsers(groupId: string) {
  return groupUserSchema.array().parse(await api.get<unknown>(`${groupPath(groupId)}/users`));
}

export const groupUsersQueryOptions = (groupId: string) =>
  queryOptions({ queryKey: groupKeys.users(groupId), queryFn: () => getGroupUsers(groupId) });

export function useGroupUsers(groupId: string) {
  return useQuery(groupUsersQueryOptions(groupId));
}
