import type { PortalUsersQuery } from '@latchkey/shared';

export type MembersParams = Partial<
  Pick<PortalUsersQuery, 'skip' | 'limit' | 'search' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'>
>;

/**
 * Query keys of the members feature. The member list shares its key with the dashboard's latest
 * members (same call), so either refreshes the other.
 */
export const memberKeys = {
  list: (params: MembersParams) => ['portal', 'users', params] as const,
  detail: (userId: string) => ['members', userId] as const,
  devices: (userId: string) => ['members', userId, 'devices'] as const,
  rfids: (userId: string) => ['members', userId, 'rfids'] as const,
  keys: (userId: string) => ['members', userId, 'keys'] as const,
  fingerprints: (userId: string) => ['members', userId, 'fingerprints'] as const,
};
