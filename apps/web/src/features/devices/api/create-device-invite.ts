import { deviceInviteSchema, type DeviceInvite, type DeviceInviteInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/**
 * POST device/{id}/invite (admin): invite a guest; without a code the server picks one the lock's
 * keypad accepts, and `send` emails it to the guest.
 */
export async function createDeviceInvite({
  deviceId,
  ...input
}: DeviceInviteInput & { deviceId: string }): Promise<DeviceInvite> {
  return deviceInviteSchema.parse(
    await api.post<unknown>(`device/${encodeURIComponent(deviceId)}/invite`, input),
  );
}

export function useCreateDeviceInvite() {
  const queryClient = useQueryClient();
  // A guest's code opens the lock: "Who can open" and the activity change too.
  return useMutation({ mutationFn: createDeviceInvite, onSuccess: () => invalidatePortalData(queryClient) });
}
