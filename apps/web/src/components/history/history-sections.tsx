import type { AuditEntry, DeviceEvent } from '@latchkey/shared';
import { Divider, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconHistory, IconPencil, IconPlugConnectedX } from '@tabler/icons-react';
import { Fragment, type ReactNode } from 'react';
import { DeviceEventIcon } from '@/components/events/device-event-icon';
import { ListPagination } from '@/components/list-pagination';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { actionText, entityName } from '@/lib/audit-text';
import { eventSentence } from '@/lib/device-events';
import { formatDateTime, formatRelative } from '@/lib/format';

// The history of a lock (its History tab) or of a person (their page): lock events and admin
// changes, each paged on the server. The screen asks for the page shown (the devices feature's
// `useSubjectEvents`, the audit feature's `useSubjectChanges`): shared parts call no endpoint.

/** One page of a history, as the screen asked for it. */
export interface HistoryPage<T> {
  query: {
    isPending: boolean;
    error: unknown;
    data: { total: number; items: readonly T[] } | undefined;
    isPlaceholderData: boolean;
    refetch: () => unknown;
  };
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
}

function When({ iso }: { iso: string }) {
  return (
    <Text size="xs" c="dimmed" component="time" dateTime={iso} title={formatRelative(iso)}>
      {formatDateTime(iso)}
    </Text>
  );
}

function Row({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <Group gap="sm" py="xs" wrap="nowrap" align="flex-start">
      {icon}
      <Stack gap={2} style={{ minWidth: 0 }}>
        {children}
      </Stack>
    </Group>
  );
}

function EventRow({ event, withLock }: { event: DeviceEvent; withLock: boolean }) {
  return (
    <Row icon={<DeviceEventIcon type={event.type} />}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {eventSentence(event, withLock)}
      </Text>
      <When iso={event.occurredAt} />
    </Row>
  );
}

function ChangeRow({ entry }: { entry: AuditEntry }) {
  const name = entityName(entry);
  const actor = entry.actor ? entry.actor.name || entry.actor.email : 'the system';
  return (
    <Row
      icon={
        <ThemeIcon variant="light" color="gray" radius="xl" aria-hidden="true">
          <IconPencil size={16} stroke={1.8} />
        </ThemeIcon>
      }
    >
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {actionText(entry.action)}
        {name ? `: ${name}` : ''}
      </Text>
      <Text size="xs" c="dimmed">
        by {actor} · <When iso={entry.createdAt} />
      </Text>
    </Row>
  );
}

function List<T extends { _id: string }>({
  items,
  label,
  dimmed,
  render,
}: {
  items: readonly T[];
  label: string;
  dimmed: boolean;
  render: (item: T) => ReactNode;
}) {
  return (
    <Stack
      gap={0}
      component="ul"
      m={0}
      p={0}
      aria-label={label}
      style={{ listStyle: 'none', opacity: dimmed ? 0.6 : 1 }}
    >
      {items.map((item, index) => (
        <Fragment key={item._id}>
          {index > 0 && <Divider component="li" aria-hidden="true" />}
          <li>{render(item)}</li>
        </Fragment>
      ))}
    </Stack>
  );
}

/** The lock events of a lock or a person, paged; with the lock's name when listing a person's. */
export function LockEventsSection({
  subject,
  events,
  description,
  emptyText,
}: {
  /** Whose events: a lock's, or a person's (then each names its lock). */
  subject: { by: 'deviceId' | 'userId' };
  events: HistoryPage<DeviceEvent>;
  description: string;
  /** What an empty list says instead of the default (a lock's page knows whether it ever connected). */
  emptyText?: string;
}) {
  const { query: logs, page, pageSize, onPage } = events;

  let body;
  if (logs.isPending) body = <TableSkeleton rows={4} label="Loading lock events" />;
  else if (logs.error) {
    body = (
      <QueryError
        title="Could not load the lock events"
        error={logs.error}
        onRetry={() => void logs.refetch()}
      />
    );
  } else if (!logs.data) {
    body = null;
  } else if (logs.data.total === 0) {
    body = (
      <Stack align="center" gap={6} py="lg" ta="center">
        <IconPlugConnectedX size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No lock events yet</Text>
        <Text size="sm" c="dimmed" maw={440}>
          {emptyText ??
            (subject.by === 'deviceId'
              ? 'Events appear here once the lock is connected: every unlock, refused attempt, door and battery alarm it reports.'
              : 'Every time they open a lock, or a lock refuses them, it shows here.')}
        </Text>
      </Stack>
    );
  } else {
    body = (
      <>
        <List
          items={logs.data.items}
          label="Lock events"
          dimmed={logs.isPlaceholderData}
          render={(event) => <EventRow event={event} withLock={subject.by === 'userId'} />}
        />
        <ListPagination
          page={page}
          pageSize={pageSize}
          total={logs.data.total}
          onChange={onPage}
          noun={logs.data.total === 1 ? 'event' : 'events'}
        />
      </>
    );
  }

  return (
    <SectionCard title="Lock events" description={description}>
      {body}
    </SectionCard>
  );
}

/** The admin changes about a lock or a person, paged. */
export function AdminChangesSection({
  changes: { query: changes, page, pageSize, onPage },
  description,
}: {
  changes: HistoryPage<AuditEntry>;
  description: string;
}) {
  let body;
  if (changes.isPending) body = <TableSkeleton rows={3} label="Loading changes" />;
  else if (changes.error) {
    body = (
      <QueryError
        title="Could not load the changes"
        error={changes.error}
        onRetry={() => void changes.refetch()}
      />
    );
  } else if (!changes.data) {
    body = null;
  } else if (changes.data.total === 0) {
    body = (
      <Stack align="center" gap={6} py="lg" ta="center">
        <IconHistory size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No changes recorded</Text>
      </Stack>
    );
  } else {
    body = (
      <>
        <List
          items={changes.data.items}
          label="Admin changes"
          dimmed={changes.isPlaceholderData}
          render={(entry) => <ChangeRow entry={entry} />}
        />
        <ListPagination
          page={page}
          pageSize={pageSize}
          total={changes.data.total}
          onChange={onPage}
          noun={changes.data.total === 1 ? 'change' : 'changes'}
        />
      </>
    );
  }

  return (
    <SectionCard title="Admin changes" description={description}>
      {body}
    </SectionCard>
  );
}
