import {
  memberAccessTimeSchema,
  memberDeviceSchema,
  type MemberAccessTime,
  type MemberDevice,
} from '@latchkey/shared';
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

/** GET user/{id}/accessTime (admin): whether they can open each of their locks right now, and why not. */
export async function getMemberAccessNow(userId: string): Promise<MemberAccessTime> {
  return memberAccessTimeSchema.parse(
    await api.get<unknown>(`user/${encodeURIComponent(userId)}/accessTime`),
  );
}

/** Under the devices key, so every change that refreshes their locks refreshes this too. */
export function useMemberAccessNow(userId: string) {
  return useQuery({
    queryKey: [...memberKeys.devices(userId), 'accessTime'],
    queryFn: () => getMemberAccessNow(userId),
    // "Now" moves on: a window may open or close while the page stays open.
    refetchInterval: 60_000,
  });
}
