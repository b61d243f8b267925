import { groupUserSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { groupKeys, groupPath } from './query-keys';

/** GET group/{id}/possibleUsers (admin): members not in a group yet. */
export async function getGroupPossibleUsers(groupId: string) {
  return groupUserSchema.array().parse(await api.get<unknown>(`${groupPath(groupId)}/possibleUsers`));
}

export const groupPossibleUsersQueryOptions = (groupId: string) =>
  queryOptions({ queryKey: groupKeys.possibleUsers(groupId), queryFn: () => getGroupPossibleUsers(groupId) });

export function useGroupPossibleUsers(groupId: string) {
  return useQuery(groupPossibleUsersQueryOptions(groupId));
}
