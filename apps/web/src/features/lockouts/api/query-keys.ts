import type { LockoutsQuery } from '@latchkey/shared';

export type LockoutsParams = Partial<
  Pick<LockoutsQuery, 'skip' | 'limit' | 'search' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'>
>;

/** Query keys of the lockouts feature: everything about one lockout sits under its detail key. */
export const lockoutKeys = {
  list: (params: LockoutsParams) => ['lockouts', 'list', params] as const,
  detail: (lockoutId: string) => ['lockouts', 'detail', lockoutId] as const,
};

export const lockoutPath = (lockoutId: string) => `portal/lockout/${encodeURIComponent(lockoutId)}`;
