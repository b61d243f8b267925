import { userScheduleSchema, type Schedule, type UserSchedule } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import { accessScheduleQueryOptions } from './get-access-schedule';

interface SetAccessScheduleInput {
  deviceId: string;
  userId: string;
  /** null: at any time. */
  schedule: Schedule | null;
}

/** POST portal/device/{id}/schedule/{userId} (admin): set when a person may open a lock. */
export async function setAccessSchedule({ deviceId, userId, schedule }: SetAccessScheduleInput) {
  return userScheduleSchema.parse(
    await api.post<unknown>(
      `portal/device/${encodeURIComponent(deviceId)}/schedule/${encodeURIComponent(userId)}`,
      { schedule },
    ),
  );
}

/**
 * Shared by the lock's People tab and the person's Locks card (the schedule dialog). Who may open
 * what shows on the lock, the person, their groups and the change log: every portal-data root
 * refreshes.
 */
export function useSetAccessSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAccessSchedule,
    onSuccess: async (saved: UserSchedule, { deviceId, userId }) => {
      queryClient.setQueryData(accessScheduleQueryOptions(deviceId, userId).queryKey, saved);
      await invalidatePortalData(queryClient);
    },
  });
}
