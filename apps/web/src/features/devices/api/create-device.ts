import { deviceCreatedSchema, type DeviceCreate, type DeviceCreated } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/** POST portal/device/new (admin): add a lock. The answer carries its device secret, this once. */
export async function createDevice(input: DeviceCreate): Promise<DeviceCreated> {
  return deviceCreatedSchema.parse(await api.post<unknown>('portal/device/new', input));
}

export function useCreateDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createDevice,
    onSuccess: () => invalidatePortalData(queryClient),
  });
}
