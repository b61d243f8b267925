import { userScheduleSchema, type Schedule, type UserSchedule } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import { deviceSchedulePath } from './get-device-schedule';
import { deviceKeys } from './query-keys';

interface SetDeviceScheduleInput {
  deviceId: string;
  userId: string;
  /** null: at any time. */
  schedule: Schedule | null;
}

/** POST portal/device/{id}/schedule/{userId} (admin): set when a person may open a lock. */
export async function setDeviceSchedule({ deviceId, userId, schedule }: SetDeviceScheduleInput) {
  return userScheduleSchema.parse(
    await api.post<unknown>(deviceSchedulePath(deviceId, userId), { schedule }),
  );
}

export function useSetDeviceSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setDeviceSchedule,
    onSuccess: async (saved: UserSchedule, { deviceId, userId }) => {
      queryClient.setQueryData(deviceKeys.schedule(deviceId, userId), saved);
      await invalidatePortalData(queryClient);
    },
  });
}
