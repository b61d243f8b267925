import { userScheduleSchema, type UserSchedule } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { memberKeys } from './query-keys';

/** The path of a person's schedule at a lock. */
export const lockSchedulePath = (userId: string, deviceId: string) =>
  `portal/device/${encodeURIComponent(deviceId)}/schedule/${encodeURIComponent(userId)}`;

/** GET portal/device/{id}/schedule/{userId} (admin): a person's schedule at one of their locks. */
export async function getLockSchedule(userId: string, deviceId: string): Promise<UserSchedule> {
  return userScheduleSchema.parse(await api.get<unknown>(lockSchedulePath(userId, deviceId)));
}

export const lockScheduleQueryOptions = (userId: string, deviceId: string) =>
  queryOptions({
    queryKey: memberKeys.schedule(userId, deviceId),
    queryFn: () => getLockSchedule(userId, deviceId),
    // Always read afresh before editing: another admin may have changed it.
    staleTime: 0,
  });

export function useLockSchedule(userId: string, deviceId: string) {
  return useQuery(lockScheduleQueryOptions(userId, deviceId));
}
