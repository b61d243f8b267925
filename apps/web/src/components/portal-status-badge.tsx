import type { Portal } from '@latchkey/shared';
import { Badge, type BadgeProps } from '@mantine/core';

interface PortalStatusBadgeProps extends Omit<BadgeProps, 'children' | 'color'> {
  portal: Pick<Portal, 'current' | 'expireDate' | 'stripe'>;
}

/**
 * "Paid up", "Free plan" or "Expired", for a portal. Brief §1's "current" is false for a portal
 * that never paid, but such a portal is on the free plan, not expired: only one that has paid
 * (a provider status or an expireDate) and is no longer current has expired.
 */
export function PortalStatusBadge({ portal, ...props }: PortalStatusBadgeProps) {
  if (portal.current) {
    return (
      <Badge color="teal" variant="light" {...props}>
        Paid up
      </Badge>
    );
  }
  const neverPaid = portal.stripe.status === null && portal.expireDate === null;
  return (
    <Badge color={neverPaid ? 'gray' : 'red'} variant="light" {...props}>
      {neverPaid ? 'Free plan' : 'Expired'}
    </Badge>
  );
}
