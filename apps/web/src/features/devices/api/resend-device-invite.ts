import { deviceInviteSchema, type DeviceInvite } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import { deviceKeys } from './query-keys';

/** GET device/{id}/invite/{inviteId}/resend (admin): email the invitation again (400 without an email). */
export async function resendDeviceInvite({
  deviceId,
  inviteId,
}: {
  deviceId: string;
  inviteId: string;
}): Promise<DeviceInvite> {
  return deviceInviteSchema.parse(
    await api.get<unknown>(
      `device/${encodeURIComponent(deviceId)}/invite/${encodeURIComponent(inviteId)}/resend`,
      // A GET that sends mail: never answer it from the response cache.
      { cacheKey: `resend-${Date.now()}` },
    ),
  );
}

export function useResendDeviceInvite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendDeviceInvite,
    // "Last sent" changes at once; the change log and activity record the resend.
    onSuccess: async (invite, { deviceId }) => {
      queryClient.setQueryData<DeviceInvite[]>(deviceKeys.invites(deviceId), (invites) =>
        invites?.map((item) => (item._id === invite._id ? invite : item)),
      );
      await invalidatePortalData(queryClient);
    },
  });
}
