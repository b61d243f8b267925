import { platformWorkSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET system/work (platform staff): mail outbox, lock connections, calendar feeds, payments, jobs. */
export async function getPlatformWork() {
  return platformWorkSchema.parse(await api.get<unknown>('system/work'));
}

export const platformWorkQueryOptions = () =>
  queryOptions({
    queryKey: ['platform', 'work'] as const,
    queryFn: getPlatformWork,
    refetchInterval: 30_000,
  });

export function usePlatformWork() {
  return useQuery(platformWorkQueryOptions());
}
