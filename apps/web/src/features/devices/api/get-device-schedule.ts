import { userScheduleSchema, type UserSchedule } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** The path of a person's schedule at a lock. */
export const deviceSchedulePath = (deviceId: string, userId: string) =>
  `portal/device/${encodeURIComponent(deviceId)}/schedule/${encodeURIComponent(userId)}`;

/** GET portal/device/{id}/schedule/{userId} (admin): a person's schedule at a lock (null: any time). */
export async function getDeviceSchedule(deviceId: string, userId: string): Promise<UserSchedule> {
  return userScheduleSchema.parse(await api.get<unknown>(deviceSchedulePath(deviceId, userId)));
}

export const deviceScheduleQueryOptions = (deviceId: string, userId: string) =>
  queryOptions({
    queryKey: deviceKeys.schedule(deviceId, userId),
    queryFn: () => getDeviceSchedule(deviceId, userId),
    // Always read afresh before editing: another admin may have changed it.
    staleTime: 0,
  });

export function useDeviceSchedule(deviceId: string, userId: string | null) {
  return useQuery({ ...deviceScheduleQueryOptions(deviceId, userId ?? ''), enabled: userId !== null });
}
