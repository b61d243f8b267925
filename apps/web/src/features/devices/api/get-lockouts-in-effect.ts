import { lockoutsPageSchema, type LockoutRecord } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** More lockouts than any portal has in effect at once: one page holds them all. */
const IN_EFFECT_PAGE = 200;

/**
 * The lockouts in effect at a lock now (GET portal/lockouts, active ones, those naming the lock),
 * those that keep admins out first: the lock page says so in its header, and holds back its unlock
 * when admins are kept out (the server refuses it: 409 lockout_in_effect). Keyed under the
 * lockouts' root, so a lockout created, changed or ended elsewhere refreshes it.
 */
export const lockoutsInEffectQueryOptions = (deviceId: string) =>
  queryOptions({
    queryKey: ['lockouts', 'in-effect', deviceId] as const,
    queryFn: async (): Promise<LockoutRecord[]> => {
      const page = lockoutsPageSchema.parse(
        await api.get<unknown>('portal/lockouts', {
          query: { filterBy: 'state', filterValue: 'active', limit: IN_EFFECT_PAGE },
        }),
      );
      return page.items
        .filter((lockout) => lockout.devices.some((device) => device._id === deviceId))
        .sort((a, b) => Number(a.exemptAdmins) - Number(b.exemptAdmins));
    },
  });

export function useLockoutsInEffect(deviceId: string) {
  return useQuery(lockoutsInEffectQueryOptions(deviceId));
}
