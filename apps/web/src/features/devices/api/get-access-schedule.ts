import { userScheduleSchema, type UserSchedule } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { deviceKeys } from './query-keys';

/** GET portal/device/{id}/schedule/{userId} (admin): a person's schedule at a lock (null: any time). */
export async function getAccessSchedule(deviceId: string, userId: string): Promise<UserSchedule> {
  return userScheduleSchema.parse(
    await api.get<unknown>(
      `portal/device/${encodeURIComponent(deviceId)}/schedule/${encodeURIComponent(userId)}`,
    ),
  );
}

/** Under the lock's detail key (the `['devices']` root). */
export const accessScheduleQueryOptions = (deviceId: string, userId: string) =>
  queryOptions({
    queryKey: deviceKeys.schedule(deviceId, userId),
    queryFn: () => getAccessSchedule(deviceId, userId),
    // Always read afresh before editing: another admin may have changed it.
    staleTime: 0,
  });

export function useAccessSchedule(deviceId: string, userId: string) {
  return useQuery(accessScheduleQueryOptions(deviceId, userId));
}
