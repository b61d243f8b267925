import type { LockoutRecord } from '@latchkey/shared';
import { Badge, type BadgeProps } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { lockoutState, STATE_LABELS, type LockoutState } from './lockout-text';

const STATE_COLORS: Record<LockoutState, string> = { active: 'red', upcoming: 'blue', past: 'gray' };

/** Active / Upcoming / Past. */
export function LockoutStateBadge({
  lockout,
  ...props
}: { lockout: Pick<LockoutRecord, 'active' | 'from'> } & BadgeProps) {
  const state = lockoutState(lockout);
  return (
    <Badge color={STATE_COLORS[state]} variant={state === 'active' ? 'filled' : 'light'} {...props}>
      {STATE_LABELS[state]}
    </Badge>
  );
}

/** Shown when admins may still open the blocked locks. */
export function ExemptBadge(props: BadgeProps) {
  return (
    <Badge
      color="teal"
      variant="light"
      leftSection={<IconShieldCheck size={12} aria-hidden="true" />}
      {...props}
    >
      Admins exempt
    </Badge>
  );
}
