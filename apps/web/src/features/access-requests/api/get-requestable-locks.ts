import { requestableLockSchema, type RequestableLock } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { accessRequestsRoot } from './access-request-collection';

/** GET portal/accessRequest/locks: the portal's locks, each saying whether one reaches it or waits for it. */
export async function getRequestableLocks(): Promise<RequestableLock[]> {
  return z.array(requestableLockSchema).parse(await api.get<unknown>('portal/accessRequest/locks'));
}

export const requestableLocksQueryOptions = () =>
  queryOptions({ queryKey: [...accessRequestsRoot, 'locks'] as const, queryFn: getRequestableLocks });

export function useRequestableLocks() {
  return useQuery(requestableLocksQueryOptions());
}
