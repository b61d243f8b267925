import type { PlatformWork, WorkRetryInput } from '@latchkey/shared';
import { Button, Group, SimpleGrid, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { formatDateTime, formatRelative } from '@/lib/format';
import { usePlatformWork } from '../api/get-platform-work';
import { useRetryWork } from '../api/retry-work';

/** /app/platform/work (platform staff): queued and failing background work, with retries. */
export function PlatformWorkPage() {
  const work = usePlatformWork();
  return (
    <Stack gap="lg">
      <PageHeader
        title="Background work"
        description="The mail outbox, lock connections, calendar feeds, payments and periodic jobs across the deployment. Refreshes every 30 seconds."
      />
      {work.isPending ? (
        <TableSkeleton label="Loading background work" />
      ) : work.error ? (
        <QueryError
          title="Could not load the background work"
          error={work.error}
          onRetry={() => void work.refetch()}
        />
      ) : (
        <WorkCards work={work.data} />
      )}
    </Stack>
  );
}

function Count({ label, value, alarm = false }: { label: string; value: number | string; alarm?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={alarm ? 'red' : undefined}>
        {value}
      </Text>
    </Stack>
  );
}

function When({ iso }: { iso: string | null }) {
  if (!iso) return <>—</>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso)}
    </time>
  );
}

function WorkCards({ work }: { work: PlatformWork }) {
  const retry = useRetryWork();
  const run = (input: WorkRetryInput, done: string) =>
    retry.mutate(input, {
      onSuccess: () => notifications.show({ color: 'teal', title: 'Queued', message: done }),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Could not retry', message: errorMessage(error) }),
    });
  const busy = (id: string) => retry.isPending && retry.variables?.id === id;

  return (
    <Stack gap="lg">
      <SectionCard title="Mail outbox" description="Mail waiting to go out, and mail the sender gave up on.">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 2, sm: 3 }}>
            <Count label="Queued" value={work.mail.queued} />
            <Count label="Failed" value={work.mail.failed} alarm={work.mail.failed > 0} />
            <Count
              label="Oldest due"
              value={work.mail.oldestDueAt ? formatRelative(work.mail.oldestDueAt) : '—'}
            />
          </SimpleGrid>
          {work.mail.recentFailures.length > 0 && (
            <Table.ScrollContainer minWidth={640}>
              <Table verticalSpacing="xs" fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>To</Table.Th>
                    <Table.Th>Subject</Table.Th>
                    <Table.Th>Error</Table.Th>
                    <Table.Th>Attempts</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>Action</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {work.mail.recentFailures.map((mail) => (
                    <Table.Tr key={mail._id}>
                      <Table.Td style={{ overflowWrap: 'anywhere' }}>{mail.to}</Table.Td>
                      <Table.Td>{mail.subject}</Table.Td>
                      <Table.Td>
                        <Text size="sm" c="red">
                          {mail.lastError ?? '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>{mail.attempts}</Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="light"
                          leftSection={<IconRefresh size={14} aria-hidden="true" />}
                          loading={busy(mail._id)}
                          onClick={() =>
                            run({ kind: 'mail', id: mail._id }, `The mail to ${mail.to} is due now.`)
                          }
                          aria-label={`Send the mail to ${mail.to} again`}
                        >
                          Send again
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </SectionCard>

      <SectionCard title="Lock connections" description="Locks of every portal, and the latest to drop.">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 2, sm: 5 }}>
            <Count label="Online" value={work.locks.online} />
            <Count label="Offline" value={work.locks.offline} alarm={work.locks.offline > 0} />
            <Count label="Never connected" value={work.locks.never} />
            <Count label="Sets not confirmed" value={work.locks.syncPending} />
            <Count label="Commands waiting" value={work.locks.commandsPending} />
          </SimpleGrid>
          {work.locks.recentDisconnects.length > 0 && (
            <Table verticalSpacing="xs" fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Lock</Table.Th>
                  <Table.Th>Portal</Table.Th>
                  <Table.Th>Last seen</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {work.locks.recentDisconnects.map((lock) => (
                  <Table.Tr key={lock._id}>
                    <Table.Td>{lock.name}</Table.Td>
                    <Table.Td>{lock.portalName}</Table.Td>
                    <Table.Td>
                      <When iso={lock.lastSeenAt} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </SectionCard>

      <SectionCard title="Calendar feeds" description="Imported calendars whose last read failed.">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 2, sm: 3 }}>
            <Count label="Feeds" value={work.feeds.total} />
            <Count label="Failing" value={work.feeds.failing} alarm={work.feeds.failing > 0} />
          </SimpleGrid>
          {work.feeds.failures.map((feed) => (
            <Group key={feed._id} justify="space-between" wrap="wrap" gap="sm">
              <Stack gap={0} style={{ minWidth: 0, flex: '1 1 260px' }}>
                <Text size="sm" fw={600}>
                  {feed.name} · {feed.portalName}
                </Text>
                <Text size="sm" c="red">
                  {feed.lastError ?? 'Failed'} (<When iso={feed.lastErrorAt} />)
                </Text>
              </Stack>
              <Button
                size="xs"
                variant="light"
                leftSection={<IconRefresh size={14} aria-hidden="true" />}
                loading={busy(feed._id)}
                onClick={() => run({ kind: 'feed', id: feed._id }, `${feed.name} is being read now.`)}
              >
                Read now
              </Button>
            </Group>
          ))}
        </Stack>
      </SectionCard>

      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <SectionCard title="Payments" description="Open checkouts and the staff payment alerts.">
          <Stack gap="md">
            <SimpleGrid cols={2}>
              <Count label="Open checkouts" value={work.payments.openCheckouts} />
              <Count
                label="Alerts this week"
                value={work.payments.alertsThisWeek}
                alarm={work.payments.alertsThisWeek > 0}
              />
            </SimpleGrid>
            {work.payments.recentAlerts.map((alert) => (
              <Stack key={alert._id} gap={0}>
                <Text size="sm" fw={600}>
                  {alert.title}
                </Text>
                <Text size="sm" c="dimmed">
                  {alert.message} (<When iso={alert.createdAt} />)
                </Text>
              </Stack>
            ))}
          </Stack>
        </SectionCard>
        <SectionCard title="Periodic jobs" description="Each job's next run and its last completed run.">
          <Table verticalSpacing="xs" fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Job</Table.Th>
                <Table.Th>Last done</Table.Th>
                <Table.Th>Next run</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {work.jobs.map((job) => (
                <Table.Tr key={job.name}>
                  <Table.Td>{job.name}</Table.Td>
                  <Table.Td>
                    <When iso={job.lastDoneAt} />
                  </Table.Td>
                  <Table.Td>
                    <When iso={job.nextRunAt} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </SectionCard>
      </SimpleGrid>
    </Stack>
  );
}
