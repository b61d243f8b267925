import { lockoutRecordSchema, type LockoutInput, type LockoutRecord } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { lockoutKeys } from './query-keys';

/** POST portal/lockout (admin): block locks for a period. */
export async function createLockout(input: LockoutInput): Promise<LockoutRecord> {
  return lockoutRecordSchema.parse(await api.post<unknown>('portal/lockout', input));
}

export function useCreateLockout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLockout,
    onSuccess: async (lockout) => {
      queryClient.setQueryData(lockoutKeys.detail(lockout._id), lockout);
      // A lockout changes who can open its locks.
      await invalidatePortalData(queryClient, (key) => keyStartsWith(key, lockoutKeys.detail(lockout._id)));
    },
  });
}
