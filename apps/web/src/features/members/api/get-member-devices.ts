import { memberDeviceSchema, type MemberDevice } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { memberKeys } from './query-keys';

/** GET user/{id}/devices (admin): the locks a person can reach, how and when. */
export async function getMemberDevices(userId: string): Promise<MemberDevice[]> {
  return memberDeviceSchema
    .array()
    .parse(await api.get<unknown>(`user/${encodeURIComponent(userId)}/devices`));
}

export const memberDevicesQueryOptions = (userId: string) =>
  queryOptions({ queryKey: memberKeys.devices(userId), queryFn: () => getMemberDevices(userId) });

export function useMemberDevices(userId: string) {
  return useQuery(memberDevicesQueryOptions(userId));
}
