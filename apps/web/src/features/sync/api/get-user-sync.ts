import { userSyncSchema } from '@latchkey/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET user/{id}/sync: one person's credentials on each of their locks, with each one's state. */
export function useUserSync(userId: string | null) {
  return useQuery({
    queryKey: ['devices', 'userSync', userId],
    queryFn: async () =>
      userSyncSchema.parse(await api.get<unknown>(`user/${encodeURIComponent(userId!)}/sync`)),
    enabled: userId !== null,
    refetchInterval: 10_000,
  });
}
