import { memberAccessTimeSchema, memberDetailSchema } from '@latchkey/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

// The basic-user area reads the person's own records through the same routes admins use for
// anyone (the server lets a person read their own).

/** GET user/{id}/accessTime: each of their locks, its schedule, and whether they can open it now. */
export function useMyLocks(userId: string) {
  return useQuery({
    queryKey: ['devices', 'mine', userId],
    queryFn: async () =>
      memberAccessTimeSchema.parse(await api.get<unknown>(`user/${encodeURIComponent(userId)}/accessTime`)),
    // "Now" moves on: a window may open or close while the page stays open.
    refetchInterval: 60_000,
  });
}

/** GET portal/user/{id}: their access code in this portal. */
export function useMyAccessCode(userId: string) {
  return useQuery({
    queryKey: ['members', 'mine', userId],
    queryFn: async () =>
      memberDetailSchema.parse(await api.get<unknown>(`portal/user/${encodeURIComponent(userId)}`))
        .accessCode,
  });
}
