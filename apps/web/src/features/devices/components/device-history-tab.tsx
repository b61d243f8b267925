import type { Device } from '@latchkey/shared';
import { Stack } from '@mantine/core';
import { AdminChangesSection, LockEventsSection } from '@/components/history/history-sections';
import { usePagedSubjectChanges } from '@/features/audit/api/get-audit';
import { connectionOf } from '@/lib/lock-connection';
import { usePagedSubjectEvents } from '../api/get-device-logs';

/** The History tab: the lock's own events and every admin change about it. */
export function DeviceHistoryTab({ device }: { device: Device }) {
  const subject = { by: 'deviceId', id: device._id } as const;
  const events = usePagedSubjectEvents(subject);
  const changes = usePagedSubjectChanges(subject);
  return (
    <Stack gap="lg">
      <LockEventsSection
        subject={subject}
        events={events}
        description="What the lock reported, newest first."
        // "Once it is connected" only for a lock that never was: one online or seen before is connected.
        emptyText={
          connectionOf(device) === 'never'
            ? `Events appear here once ${device.name} connects: every unlock, refused attempt, door and battery alarm it reports.`
            : `${device.name} has reported no events yet. Every unlock, refused attempt, door and battery alarm it reports shows here as it happens.`
        }
      />
      <AdminChangesSection
        changes={changes}
        description="Changes to this lock and to who can open it, newest first."
      />
    </Stack>
  );
}
