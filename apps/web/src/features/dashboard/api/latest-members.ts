import { useQuery } from '@tanstack/react-query';
import { membersQueryOptions } from '@/features/members/api/get-members';
import type { MembersParams } from '@/features/members/api/query-keys';

/**
 * The dashboard's "Latest members": the five people who joined last. The call is the member
 * list's (GET portal/users, its one home in the members feature), so it shares its query key and
 * either refreshes the other.
 */
export const LATEST_MEMBERS = {
  limit: 5,
  sortBy: 'joinedAt',
  descending: true,
} as const satisfies MembersParams;

export const latestMembersQueryOptions = () => membersQueryOptions(LATEST_MEMBERS);

export function useLatestMembers() {
  return useQuery(latestMembersQueryOptions());
}
