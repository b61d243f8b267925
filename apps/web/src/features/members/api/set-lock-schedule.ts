import { userScheduleSchema, type Schedule } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import { lockSchedulePath } from './get-lock-schedule';

interface SetLockScheduleInput {
  userId: string;
  deviceId: string;
  /** null: at any time. */
  schedule: Schedule | null;
}

/** POST portal/device/{id}/schedule/{userId} (admin): set when a person may open one of their locks. */
export async function setLockSchedule({ userId, deviceId, schedule }: SetLockScheduleInput) {
  return userScheduleSchema.parse(await api.post<unknown>(lockSchedulePath(userId, deviceId), { schedule }));
}

export function useSetLockSchedule() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setLockSchedule, onSuccess: () => invalidatePortalData(queryClient) });
}
