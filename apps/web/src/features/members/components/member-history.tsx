import { Grid } from '@mantine/core';
import { AdminChangesSection, LockEventsSection } from '@/components/history/history-sections';
import { usePagedSubjectChanges } from '@/features/audit/api/get-audit';
import { usePagedSubjectEvents } from '@/features/devices/api/get-device-logs';

/** A person's history: the lock events they took part in and the admin changes about them. */
export function MemberHistory({ userId }: { userId: string }) {
  const subject = { by: 'userId', id: userId } as const;
  const events = usePagedSubjectEvents(subject);
  const changes = usePagedSubjectChanges(subject);
  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 6 }}>
        <LockEventsSection
          subject={subject}
          events={events}
          description="The locks they opened, or that refused them, newest first."
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <AdminChangesSection
          changes={changes}
          description="Changes to their membership, code, schedules, groups and credentials, newest first."
        />
      </Grid.Col>
    </Grid>
  );
}
