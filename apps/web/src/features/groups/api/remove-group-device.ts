import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import type { GroupDeviceTarget } from './add-group-device';
import { groupPath } from './query-keys';

/** DELETE group/{id}/device/{deviceId} (admin): take a lock out of a group. */
export async function removeGroupDevice({ groupId, deviceId }: GroupDeviceTarget): Promise<void> {
  await api.delete<unknown>(`${groupPath(groupId)}/device/${encodeURIComponent(deviceId)}`);
}

export function useRemoveGroupDevice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: removeGroupDevice, onSuccess: () => invalidatePortalData(queryClient) });
}
