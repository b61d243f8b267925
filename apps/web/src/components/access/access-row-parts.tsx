import type { Schedule } from '@latchkey/shared';
import { ActionIcon, Button, Group, Text, Tooltip } from '@mantine/core';
import { IconCalendarTime, IconClock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { describeSchedule } from '@/components/schedule/describe-schedule';

/** "Schedule: Mon–Fri 09:00–17:00" on a person ↔ lock row. */
export function AccessScheduleLine({ schedule }: { schedule: Schedule | null }) {
  return (
    <Group gap={6} wrap="nowrap" align="flex-start">
      <IconClock size={16} stroke={1.6} aria-hidden="true" style={{ flexShrink: 0, marginTop: 2 }} />
      <Text size="sm">
        <Text span c="dimmed" size="sm">
          Schedule:{' '}
        </Text>
        {describeSchedule(schedule)}
      </Text>
    </Group>
  );
}

interface AccessRowActionsProps {
  /** Direct access can be removed here; access through groups cannot. */
  direct: boolean;
  editLabel: string;
  removeLabel: string;
  removeIcon: ReactNode;
  onEditSchedule: () => void;
  onRemove: () => void;
}

/** A person ↔ lock row's actions: edit the schedule, remove direct access. */
export function AccessRowActions({
  direct,
  editLabel,
  removeLabel,
  removeIcon,
  onEditSchedule,
  onRemove,
}: AccessRowActionsProps) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="xs"
        variant="light"
        leftSection={<IconCalendarTime size={14} aria-hidden="true" />}
        onClick={onEditSchedule}
        aria-label={editLabel}
      >
        Edit schedule
      </Button>
      {direct && (
        <Tooltip label="Remove direct access">
          <ActionIcon variant="subtle" color="red" size="lg" onClick={onRemove} aria-label={removeLabel}>
            {removeIcon}
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
