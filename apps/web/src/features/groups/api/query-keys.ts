import type { GroupsQuery } from '@latchkey/shared';

export type GroupsParams = Partial<Pick<GroupsQuery, 'skip' | 'limit' | 'search' | 'sortBy' | 'descending'>>;

/** Query keys of the groups feature: everything about one group sits under its detail key. */
export const groupKeys = {
  list: (params: GroupsParams) => ['groups', 'list', params] as const,
  options: () => ['groups', 'options'] as const,
  detail: (groupId: string) => ['groups', 'detail', groupId] as const,
  users: (groupId: string) => ['groups', 'detail', groupId, 'users'] as const,
  possibleUsers: (groupId: string) => ['groups', 'detail', groupId, 'possibleUsers'] as const,
  devices: (groupId: string) => ['groups', 'detail', groupId, 'devices'] as const,
  possibleDevices: (groupId: string) => ['groups', 'detail', groupId, 'possibleDevices'] as const,
};

export const groupPath = (groupId: string) => `group/${encodeURIComponent(groupId)}`;
