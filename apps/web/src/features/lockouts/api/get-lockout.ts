import { lockoutRecordSchema, type LockoutRecord } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { lockoutKeys, lockoutPath } from './query-keys';

/** GET portal/lockout/{id} (admin): one lockout. */
export async function getLockout(lockoutId: string): Promise<LockoutRecord> {
  return lockoutRecordSchema.parse(await api.get<unknown>(lockoutPath(lockoutId)));
}

export const lockoutQueryOptions = (lockoutId: string) =>
  queryOptions({ queryKey: lockoutKeys.detail(lockoutId), queryFn: () => getLockout(lockoutId) });

export function useLockout(lockoutId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...lockoutQueryOptions(lockoutId), enabled });
}
