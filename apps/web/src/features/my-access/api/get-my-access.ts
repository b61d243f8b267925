import { useQuery } from '@tanstack/react-query';
import { getMember } from '@/features/members/api/get-member';
import { getMemberAccessNow } from '@/features/members/api/get-member-devices';

// The basic-user area reads the person's own records through the same routes admins use for
// anyone (the server lets a person read their own): the calls are the members feature's, their
// one home; the keys here are this area's (its locks sit under the devices root, so lock events
// from the live channel refresh them).

/** GET user/{id}/accessTime: each of their locks, its schedule, and whether they can open it now. */
export function useMyLocks(userId: string) {
  return useQuery({
    queryKey: ['devices', 'mine', userId],
    queryFn: () => getMemberAccessNow(userId),
    // "Now" moves on: a window may open or close while the page stays open.
    refetchInterval: 60_000,
  });
}

/** GET portal/user/{id}: their access code in this portal. */
export function useMyAccessCode(userId: string) {
  return useQuery({
    queryKey: ['members', 'mine', userId],
    queryFn: async () => (await getMember(userId)).accessCode,
  });
}
