import { devicesPageSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { lockoutKeys } from './query-keys';

/** The most locks the picker offers (GET portal/devices?limit=200&sortBy=name). */
export const LOCK_OPTIONS_LIMIT = 200;

/** GET portal/devices (admin): the portal's locks by name, to choose the ones a lockout blocks. */
export async function getLockOptions() {
  return devicesPageSchema.parse(
    await api.get<unknown>('portal/devices', { query: { limit: LOCK_OPTIONS_LIMIT, sortBy: 'name' } }),
  );
}

export const lockOptionsQueryOptions = () =>
  queryOptions({ queryKey: lockoutKeys.lockOptions(), queryFn: getLockOptions });

export function useLockOptions() {
  return useQuery(lockOptionsQueryOptions());
}
