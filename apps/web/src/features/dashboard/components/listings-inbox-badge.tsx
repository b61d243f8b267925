import { Badge } from '@mantine/core';
import { useWaitingRequests } from '../api/get-waiting-requests';

/**
 * The Listings menu item's badge: how many stay requests wait for an answer (none: no badge). The
 * live channel refreshes it when a guest asks or the host answers.
 */
export function ListingsInboxBadge() {
  const { data } = useWaitingRequests();
  const total = data?.total ?? 0;
  if (total === 0) return null;
  const label = `${total} request${total === 1 ? '' : 's'} waiting for an answer`;
  return (
    <Badge size="sm" color="orange" variant="filled" circle={total < 10} aria-label={label} title={label}>
      {total > 99 ? '99+' : total}
    </Badge>
  );
}
