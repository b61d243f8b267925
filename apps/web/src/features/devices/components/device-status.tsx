import { LOCK_MODELS, type Device } from '@latchkey/shared';
import { Badge, Group, Text } from '@mantine/core';
import { IconBattery1, IconBattery2, IconBattery3, IconBattery4, IconBatteryOff } from '@tabler/icons-react';
import { LockConnectionStatus } from '@/components/lock-connection-status';

/** The model's name for people ("Keypad code lock"). */
export function modelLabel(model: string): string {
  return model in LOCK_MODELS ? LOCK_MODELS[model as keyof typeof LOCK_MODELS].label : model;
}

export const MODEL_OPTIONS = Object.entries(LOCK_MODELS).map(([value, model]) => ({
  value,
  label: model.label,
}));

function BatteryIcon({ level }: { level: number }) {
  const props = { size: 18, stroke: 1.6, 'aria-hidden': true } as const;
  if (level >= 75) return <IconBattery4 {...props} />;
  if (level >= 50) return <IconBattery3 {...props} />;
  if (level >= 25) return <IconBattery2 {...props} />;
  return <IconBattery1 {...props} />;
}

interface BatteryLevelProps {
  device: Pick<Device, 'battery' | 'lowBatteryLevel'>;
  /** Say "Battery" too (outside a column headed Battery). */
  withLabel?: boolean;
}

/** Battery level, red with "Low" at or below the lock's own low-battery level. */
export function BatteryLevel({ device, withLabel = false }: BatteryLevelProps) {
  if (device.battery === null) {
    return (
      <Group gap={4} wrap="nowrap" c="dimmed">
        <IconBatteryOff size={18} stroke={1.6} aria-hidden="true" />
        <Text size="sm" c="dimmed">
          {withLabel ? 'Battery unknown' : 'Unknown'}
        </Text>
      </Group>
    );
  }
  const low = device.battery <= device.lowBatteryLevel;
  return (
    <Group gap={4} wrap="nowrap" c={low ? 'red' : undefined}>
      <BatteryIcon level={device.battery} />
      <Text size="sm" c={low ? 'red' : undefined} fw={low ? 600 : undefined}>
        {withLabel ? `Battery ${device.battery}%` : `${device.battery}%`}
      </Text>
      {low && (
        <Badge size="xs" color="red" variant="light">
          Low
        </Badge>
      )}
    </Group>
  );
}

/**
 * "Online", "Offline, last seen 2 hours ago" or "Never connected": the one wording and dot of
 * components/lock-connection-status.tsx, on the lock list and the lock's header as everywhere else.
 */
export function LastSeen({ device }: { device: Pick<Device, 'online' | 'lastSeenAt'> }) {
  return <LockConnectionStatus lock={device} />;
}
