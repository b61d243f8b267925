import { Badge, type BadgeProps } from '@mantine/core';

interface PortalStatusBadgeProps extends Omit<BadgeProps, 'children' | 'color'> {
  /** Paid up: stripe status active or expireDate in the future (brief §1). */
  current: boolean;
}

/** "Paid up" or "Expired", for a portal. */
export function PortalStatusBadge({ current, ...props }: PortalStatusBadgeProps) {
  return (
    <Badge color={current ? 'teal' : 'red'} variant="light" {...props}>
      {current ? 'Paid up' : 'Expired'}
    </Badge>
  );
}
