import type { DeviceEventType } from '@latchkey/shared';
import { ThemeIcon, type MantineSize } from '@mantine/core';
import {
  IconAlertTriangle,
  IconBattery1,
  IconDoor,
  IconDoorEnter,
  IconLock,
  IconLockOpen,
  IconLockX,
  type Icon,
} from '@tabler/icons-react';

const ICONS: Record<DeviceEventType, { icon: Icon; color: string }> = {
  unlock: { icon: IconLockOpen, color: 'teal' },
  lock: { icon: IconLock, color: 'blue' },
  denied: { icon: IconLockX, color: 'red' },
  tamper: { icon: IconAlertTriangle, color: 'red' },
  battery_low: { icon: IconBattery1, color: 'yellow' },
  door_ajar: { icon: IconDoorEnter, color: 'orange' },
  door_closed: { icon: IconDoor, color: 'gray' },
};

/** A lock event's icon, coloured by what it means (red for refusals and alarms). Decorative. */
export function DeviceEventIcon({ type, size = 'md' }: { type: DeviceEventType; size?: MantineSize }) {
  const { icon: EventIcon, color } = ICONS[type];
  return (
    <ThemeIcon variant="light" color={color} size={size} radius="xl" aria-hidden="true">
      <EventIcon size={16} stroke={1.8} />
    </ThemeIcon>
  );
}
