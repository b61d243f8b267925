import type { Device } from '@latchkey/shared';
import { Stack } from '@mantine/core';
import { AdminChangesSection, LockEventsSection } from '@/components/history/history-sections';

/** The History tab: the lock's own events and every admin change about it. */
export function DeviceHistoryTab({ device }: { device: Device }) {
  const subject = { by: 'deviceId', id: device._id } as const;
  return (
    <Stack gap="lg">
      <LockEventsSection subject={subject} description="What the lock reported, newest first." />
      <AdminChangesSection
        subject={subject}
        description="Changes to this lock, its schedules, groups, guests and fingerprints, newest first."
      />
    </Stack>
  );
}
