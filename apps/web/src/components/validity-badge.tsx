import { Badge, type BadgeProps } from '@mantine/core';
import { validityState, VALIDITY_STATE_LABELS, type ValidityState } from '@/lib/validity';

const COLORS: Record<ValidityState, string> = { active: 'teal', upcoming: 'blue', expired: 'gray' };

interface ValidityBadgeProps extends Omit<BadgeProps, 'children' | 'color'> {
  validFrom: string | null;
  validUntil: string | null;
}

/** Active, Not yet valid or Expired: a credential's validity window now. */
export function ValidityBadge({ validFrom, validUntil, ...props }: ValidityBadgeProps) {
  const state = validityState({ validFrom, validUntil });
  return (
    <Badge
      color={COLORS[state]}
      variant={state === 'active' ? 'dot' : 'light'}
      style={{ flexShrink: 0, minWidth: 'max-content' }}
      {...props}
    >
      {VALIDITY_STATE_LABELS[state]}
    </Badge>
  );
}
