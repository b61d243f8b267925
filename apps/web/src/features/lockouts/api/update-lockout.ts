import { lockoutRecordSchema, type LockoutInput, type LockoutRecord } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData, keyStartsWith } from '@/lib/query-roots';
import { lockoutKeys, lockoutPath } from './query-keys';

/** POST portal/lockout/{id} (admin): replace a lockout's name, period, exemption and locks. */
export async function updateLockout({
  lockoutId,
  ...input
}: LockoutInput & { lockoutId: string }): Promise<LockoutRecord> {
  return lockoutRecordSchema.parse(await api.post<unknown>(lockoutPath(lockoutId), input));
}

export function useUpdateLockout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLockout,
    onSuccess: async (lockout) => {
      queryClient.setQueryData(lockoutKeys.detail(lockout._id), lockout);
      // The answer is the saved record: no need to ask for it again.
      await invalidatePortalData(queryClient, (key) => keyStartsWith(key, lockoutKeys.detail(lockout._id)));
    },
  });
}
