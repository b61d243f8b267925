import type { KeyType } from '@latchkey/shared';
import { Badge, type BadgeProps } from '@mantine/core';
import { IconDeviceMobile, IconKey } from '@tabler/icons-react';
import { KEY_TYPE_LABELS } from '@/lib/credential-labels';

interface KeyTypeBadgeProps extends Omit<BadgeProps, 'children' | 'color'> {
  type: KeyType;
}

/** Physical (a cut key with a stamped number) or Digital (a credential the lock checks). */
export function KeyTypeBadge({ type, ...props }: KeyTypeBadgeProps) {
  const Icon = type === 'physical' ? IconKey : IconDeviceMobile;
  return (
    <Badge
      variant="light"
      color={type === 'physical' ? 'orange' : 'indigo'}
      leftSection={<Icon size={12} aria-hidden="true" />}
      style={{ flexShrink: 0, minWidth: 'max-content' }}
      {...props}
    >
      {KEY_TYPE_LABELS[type]}
    </Badge>
  );
}
