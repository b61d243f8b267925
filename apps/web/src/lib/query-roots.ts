import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * The roots under which features key their portal data. Who may open what is one web of
 * relations (a person ↔ lock grant shows on the lock, on the person and in the change log; a
 * group changes both), so a change to access invalidates every root: only the queries on screen
 * refetch, the rest are marked stale.
 */
export const PORTAL_DATA_ROOTS: readonly QueryKey[] = [
  ['devices'],
  ['members'],
  ['groups'],
  ['audit'],
  // Lockouts name their locks, and a lockout changes who can open a lock.
  ['lockouts'],
  // Credentials name their holders and locks: a removed person or lock changes them too.
  ['keys'],
  ['fingerprints'],
  ['companyCodes'],
  // The member list (shared with the dashboard's latest members) and the dashboard's counts.
  ['portal', 'users'],
  ['portal', 'dashboard'],
  // The portal's card list (a card's holder, label or validity), and the activity feed.
  ['cards'],
  ['activity'],
  // Alert rules name locks and people.
  ['alerts'],
  // The running month's bill counts the portal's locks.
  ['billing'],
  // Listings name their locks and people, and a lock's removal changes their stays' access.
  ['listings'],
];

/**
 * Invalidates the portal's data after a change. `except` keeps queries out, e.g. those of a
 * record just deleted, whose screen is being left (refetching them would only answer 404).
 */
export function invalidatePortalData(
  queryClient: QueryClient,
  except?: (queryKey: QueryKey) => boolean,
): Promise<void> {
  return Promise.all(
    PORTAL_DATA_ROOTS.map((queryKey) =>
      queryClient.invalidateQueries({
        queryKey,
        predicate: except ? (query) => !except(query.queryKey) : undefined,
      }),
    ),
  ).then(() => undefined);
}

/** True when `queryKey` starts with `prefix`. */
export function keyStartsWith(queryKey: QueryKey, prefix: QueryKey): boolean {
  return prefix.every((part, index) => queryKey[index] === part);
}
