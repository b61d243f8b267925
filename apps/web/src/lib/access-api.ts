import { userScheduleSchema, type Schedule, type UserSchedule } from '@latchkey/shared';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/**
 * Person ↔ lock access, shared by the lock's People tab and the person's Locks card: a person's
 * schedule at a lock, and their direct access to it. Every change invalidates all portal-data
 * roots, so the lock, the person, their groups and the change log all refresh.
 */

/** Who at which lock. */
export interface AccessTarget {
  deviceId: string;
  userId: string;
}

/** A person's schedule at a lock sits under the lock's detail key (the `['devices']` root). */
export const accessKeys = {
  schedule: (deviceId: string, userId: string) =>
    ['devices', 'detail', deviceId, 'schedule', userId] as const,
};

const schedulePath = (deviceId: string, userId: string) =>
  `portal/device/${encodeURIComponent(deviceId)}/schedule/${encodeURIComponent(userId)}`;

const directAccessPath = (deviceId: string, userId: string) =>
  `user/${encodeURIComponent(userId)}/device/${encodeURIComponent(deviceId)}`;

/** GET portal/device/{id}/schedule/{userId} (admin): a person's schedule at a lock (null: any time). */
export async function getAccessSchedule(deviceId: string, userId: string): Promise<UserSchedule> {
  return userScheduleSchema.parse(await api.get<unknown>(schedulePath(deviceId, userId)));
}

export const accessScheduleQueryOptions = (deviceId: string, userId: string) =>
  queryOptions({
    queryKey: accessKeys.schedule(deviceId, userId),
    queryFn: () => getAccessSchedule(deviceId, userId),
    // Always read afresh before editing: another admin may have changed it.
    staleTime: 0,
  });

export function useAccessSchedule(deviceId: string, userId: string) {
  return useQuery(accessScheduleQueryOptions(deviceId, userId));
}

interface SetAccessScheduleInput extends AccessTarget {
  /** null: at any time. */
  schedule: Schedule | null;
}

/** POST portal/device/{id}/schedule/{userId} (admin): set when a person may open a lock. */
export async function setAccessSchedule({ deviceId, userId, schedule }: SetAccessScheduleInput) {
  return userScheduleSchema.parse(await api.post<unknown>(schedulePath(deviceId, userId), { schedule }));
}

export function useSetAccessSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAccessSchedule,
    onSuccess: async (saved: UserSchedule, { deviceId, userId }) => {
      queryClient.setQueryData(accessKeys.schedule(deviceId, userId), saved);
      await invalidatePortalData(queryClient);
    },
  });
}

/** PUT user/{userId}/device/{deviceId} (admin): give a person direct access to a lock. */
export async function giveDirectAccess({ deviceId, userId }: AccessTarget): Promise<void> {
  await api.put<unknown>(directAccessPath(deviceId, userId));
}

export function useGiveDirectAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: giveDirectAccess, onSuccess: () => invalidatePortalData(queryClient) });
}

/** DELETE user/{userId}/device/{deviceId} (admin): end a person's direct access (group access stays). */
export async function removeDirectAccess({ deviceId, userId }: AccessTarget): Promise<void> {
  await api.delete<unknown>(directAccessPath(deviceId, userId));
}

export function useRemoveDirectAccess() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeDirectAccess, onSuccess: () => invalidatePortalData(queryClient) });
}
