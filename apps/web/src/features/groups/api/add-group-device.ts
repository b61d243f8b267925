import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import { groupPath } from './query-keys';

export interface GroupDeviceTarget {
  groupId: string;
  deviceId: string;
}

/** PUT group/{id}/device/{deviceId} (admin): add a lock to a group. */
export async function addGroupDevice({ groupId, deviceId }: GroupDeviceTarget): Promise<void> {
  await api.put<unknown>(`${groupPath(groupId)}/device/${encodeURIComponent(deviceId)}`);
}

export function useAddGroupDevice() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: addGroupDevice, onSuccess: () => invalidatePortalData(queryClient) });
}
