import { PORTAL_STANDING_LABELS, type Portal } from '@latchkey/shared';
import { Badge, type BadgeProps } from '@mantine/core';

interface PortalStatusBadgeProps extends Omit<BadgeProps, 'children' | 'color'> {
  portal: Pick<Portal, 'current' | 'expireDate' | 'stripe'>;
}

/**
 * "Paid up", "Free plan" or "Not paid", for a portal: the standing labels billing and the platform
 * console show. Brief §1's "current" is false for a portal that never paid, but such a portal is on
 * the free plan, not unpaid: only one that has paid (a provider status or an expireDate) and is no
 * longer current is "Not paid".
 */
export function PortalStatusBadge({ portal, ...props }: PortalStatusBadgeProps) {
  if (portal.current) {
    return (
      <Badge color="teal" variant="light" {...props}>
        {PORTAL_STANDING_LABELS.active}
      </Badge>
    );
  }
  const neverPaid = portal.stripe.status === null && portal.expireDate === null;
  return (
    <Badge color={neverPaid ? 'gray' : 'red'} variant="light" {...props}>
      {neverPaid ? PORTAL_STANDING_LABELS.free : PORTAL_STANDING_LABELS.lapsed}
    </Badge>
  );
}
