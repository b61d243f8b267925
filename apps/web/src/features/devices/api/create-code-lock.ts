import { deviceCreatedSchema, type CodeLockCreate, type DeviceCreated } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/**
 * POST device/codelock/add (admin): add a keypad-only code lock with its master code. The answer
 * carries its device secret, this once.
 */
export async function createCodeLock(input: CodeLockCreate): Promise<DeviceCreated> {
  return deviceCreatedSchema.parse(await api.post<unknown>('device/codelock/add', input));
}

export function useCreateCodeLock() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: createCodeLock, onSuccess: () => invalidatePortalData(queryClient) });
}
