import { deviceInviteSchema, type DeviceInvite, type DeviceInviteInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/** POST device/{id}/invite/{inviteId} (admin): change a guest invite; without a code the guest keeps theirs. */
export async function updateDeviceInvite({
  deviceId,
  inviteId,
  ...input
}: DeviceInviteInput & { deviceId: string; inviteId: string }): Promise<DeviceInvite> {
  return deviceInviteSchema.parse(
    await api.post<unknown>(
      `device/${encodeURIComponent(deviceId)}/invite/${encodeURIComponent(inviteId)}`,
      input,
    ),
  );
}

export function useUpdateDeviceInvite() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateDeviceInvite, onSuccess: () => invalidatePortalData(queryClient) });
}
