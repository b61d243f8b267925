import type { MembershipStatus, PortalRole } from '@latchkey/shared';
import { Badge, Text, type BadgeProps } from '@mantine/core';
import { formatDate, formatDateTime } from '@/lib/format';

const NO_SHRINK = { flexShrink: 0, minWidth: 'max-content' } as const;

const STATUS_COLOR: Record<MembershipStatus, string> = {
  active: 'teal',
  invited: 'yellow',
  suspended: 'red',
};

const STATUS_LABEL: Record<MembershipStatus, string> = {
  active: 'Active',
  invited: 'Invited',
  suspended: 'Suspended',
};

interface RoleBadgeProps extends Omit<BadgeProps, 'children' | 'color'> {
  member: { role: PortalRole; owner?: boolean };
}

/** Owner, Admin or User. Owners are admins; their badge says so instead of a second one. */
export function RoleBadge({ member, ...props }: RoleBadgeProps) {
  const [label, color] = member.owner
    ? ['Owner', 'latchkey']
    : member.role === 'admin'
      ? ['Admin', 'indigo']
      : ['User', 'gray'];
  return (
    <Badge variant="light" color={color} style={NO_SHRINK} {...props}>
      {label}
    </Badge>
  );
}

interface MemberStatusBadgeProps extends Omit<BadgeProps, 'children' | 'color'> {
  status: MembershipStatus;
}

/** Active, Invited or Suspended, as a dot badge. */
export function MemberStatusBadge({ status, ...props }: MemberStatusBadgeProps) {
  return (
    <Badge variant="dot" color={STATUS_COLOR[status]} style={NO_SHRINK} {...props}>
      {STATUS_LABEL[status]}
    </Badge>
  );
}

/**
 * When a person joined, or when they were invited ("Invited Nov 28, 2026"): a date either way, so
 * one column reads one way (it mixed "Invited Nov 28, 2026" with "4 minutes ago"). An invited person
 * has not joined yet, and `joinedAt` is then the invitation's time. The exact time is in the title.
 */
export function MemberSince({ member }: { member: { status: MembershipStatus; joinedAt: string } }) {
  const date = formatDate(member.joinedAt);
  return (
    <Text size="sm" component="time" dateTime={member.joinedAt} title={formatDateTime(member.joinedAt)}>
      {member.status === 'invited' ? `Invited ${date}` : date}
    </Text>
  );
}
