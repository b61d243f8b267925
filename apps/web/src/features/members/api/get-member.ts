import { memberDetailSchema, type MemberDetail } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { memberKeys } from './query-keys';

/** GET portal/user/{id} (admin): a person in this portal, with their access code. */
export async function getMember(userId: string): Promise<MemberDetail> {
  return memberDetailSchema.parse(await api.get<unknown>(`portal/user/${encodeURIComponent(userId)}`));
}

export const memberQueryOptions = (userId: string) =>
  queryOptions({ queryKey: memberKeys.detail(userId), queryFn: () => getMember(userId) });

export function useMember(userId: string) {
  return useQuery(memberQueryOptions(userId));
}
