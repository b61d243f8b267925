import { lockoutsPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { lockoutKeys, type LockoutsParams } from './query-keys';

/** GET portal/lockouts (admin): one page of the portal's lockouts. */
export async function getLockouts(params: LockoutsParams) {
  return lockoutsPageSchema.parse(await api.get<unknown>('portal/lockouts', { query: { ...params } }));
}

export const lockoutsQueryOptions = (params: LockoutsParams) =>
  queryOptions({
    queryKey: lockoutKeys.list(params),
    queryFn: () => getLockouts(params),
    placeholderData: keepPreviousData,
  });

export function useLockouts(params: LockoutsParams) {
  return useQuery(lockoutsQueryOptions(params));
}
