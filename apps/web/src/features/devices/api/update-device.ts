import { deviceSchema, type Device, type DeviceUpdate } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';
import { deviceKeys } from './query-keys';

/** POST portal/device/{id} (admin): rename a lock, change its time zone or low-battery level. */
export async function updateDevice({ deviceId, ...changes }: DeviceUpdate & { deviceId: string }) {
  return deviceSchema.parse(
    await api.post<unknown>(`portal/device/${encodeURIComponent(deviceId)}`, changes),
  );
}

export function useUpdateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateDevice,
    onSuccess: async (device: Device) => {
      queryClient.setQueryData(deviceKeys.detail(device._id), device);
      // The name and time zone show in lists, on people's lock lists and in the change log.
      await invalidatePortalData(queryClient);
    },
  });
}
