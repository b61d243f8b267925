import type { MembershipStatus, PortalRole } from '@latchkey/shared';
import { Badge, Text, type BadgeProps } from '@mantine/core';
import { formatDate, formatRelative } from '@/lib/format';

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
 * When a person joined, relative ("3 days ago"), or when they were invited, as a date: an invited
 * person has not joined yet, and `joinedAt` is then the invitation's time.
 */
export function MemberSince({ member }: { member: { status: MembershipStatus; joinedAt: string } }) {
  return member.status === 'invited' ? (
    <Text size="sm" component="time" dateTime={member.joinedAt}>
      Invited {formatDate(member.joinedAt)}
    </Text>
  ) : (
    <Text size="sm" component="time" dateTime={member.joinedAt} title={formatDate(member.joinedAt)}>
      {formatRelative(member.joinedAt)}
    </Text>
  );
}
