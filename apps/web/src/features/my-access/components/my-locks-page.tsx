import { Anchor, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { describeSchedule } from '@/components/schedule/describe-schedule';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/format';
import { LockConnectionStatus } from '@/components/lock-connection-status';
import { waysToOpen } from '@/lib/lock-connection';
import { useSession } from '@/lib/session';
import { useMyLocks } from '../api/get-my-access';
import { LockNowBadge } from './lock-now-badge';
import { MyCodeCard } from './my-code-card';

/** /user: the signed-in person's locks, when they may open each, and their keypad code. */
export function MyLocksPage() {
  const { data: session } = useSession();
  const userId = session!.user._id;
  const locks = useMyLocks(userId);

  let list;
  if (locks.isPending) list = <TableSkeleton rows={3} label="Loading your locks" />;
  else if (locks.error) {
    list = (
      <QueryError
        title="Could not load your locks"
        error={locks.error}
        onRetry={() => void locks.refetch()}
      />
    );
  } else if (locks.data.locks.length === 0) {
    list = (
      <Paper withBorder radius="lg" p="xl">
        <Stack align="center" gap={6} ta="center">
          <IconLock size={36} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
          <Text fw={600}>No locks yet</Text>
          <Text size="sm" c="dimmed" maw={420}>
            When your portal admin gives you access to a lock, it shows up here with the times you may open
            it.
          </Text>
        </Stack>
      </Paper>
    );
  } else {
    list = (
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" component="ul" aria-label="Your locks" p={0} m={0}>
        {locks.data.locks.map((lock) => (
          <Paper key={lock._id} withBorder radius="lg" p="md" component="li" style={{ listStyle: 'none' }}>
            <Stack gap={8}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Anchor component={Link} to={paths.user.lock.href(lock._id)} fw={700} style={{ minWidth: 0 }}>
                  {lock.name}
                </Anchor>
                <LockNowBadge lock={lock} />
              </Group>
              <Text size="sm">{describeSchedule(lock.schedule)}</Text>
              <Group gap="xs" justify="space-between" wrap="wrap">
                <LockConnectionStatus lock={lock} />
                {lock.credentials.length > 0 && (
                  <Text size="xs" c="dimmed">
                    Opens with: {waysToOpen(lock.credentials)}
                  </Text>
                )}
              </Group>
              <Text size="xs" c="dimmed">
                Now {formatDateTime(locks.data.at, lock.timeZone, { weekday: true, zone: true })}
              </Text>
            </Stack>
          </Paper>
        ))}
      </SimpleGrid>
    );
  }

  return (
    <Stack gap="lg">
      <PageHeader
        title="Your locks"
        description={session!.portal ? `In ${session!.portal.name}` : 'The locks you may open'}
      />
      <MyCodeCard userId={userId} />
      <Text size="sm">
        <Anchor component={Link} to={paths.sync.user.href()}>
          Check that each lock has your latest code and access
        </Anchor>
      </Text>
      {list}
    </Stack>
  );
}
