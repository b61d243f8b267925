import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/** DELETE device/{id}/invite/{inviteId} (admin): the guest's code stops working. */
export async function deleteDeviceInvite({ deviceId, inviteId }: { deviceId: string; inviteId: string }) {
  await api.delete<unknown>(`device/${encodeURIComponent(deviceId)}/invite/${encodeURIComponent(inviteId)}`);
}

export function useDeleteDeviceInvite() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteDeviceInvite, onSuccess: () => invalidatePortalData(queryClient) });
}
