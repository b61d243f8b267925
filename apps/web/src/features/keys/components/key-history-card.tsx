import type { ActivityItem, AuditEntry } from '@latchkey/shared';
import { Stack, Table, Text } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { eventSentence } from '@/lib/device-events';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useKeyHistory } from '../api/get-key-history';
import { describeKeyEvent } from './key-text';

const actorName = (entry: AuditEntry) => (entry.actor ? entry.actor.name || entry.actor.email : 'the system');

/** One row: when, who, what; a change in the key's own words, a use as the lock reported it. */
function HistoryRow({
  at,
  who,
  title,
  detail,
}: {
  at: string;
  who: string;
  title: string;
  detail: string | null;
}) {
  return (
    <Table.Tr>
      <Table.Td miw={96} style={{ verticalAlign: 'top' }}>
        <Text size="sm" component="time" dateTime={at} title={formatRelative(at)}>
          {formatDateTime(at)}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm" style={{ verticalAlign: 'top' }}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {who}
        </Text>
      </Table.Td>
      <Table.Td style={{ verticalAlign: 'top' }}>
        <Text size="sm" fw={600}>
          {title}
        </Text>
        {detail && (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {detail}
          </Text>
        )}
        <Text size="xs" c="dimmed" hiddenFrom="sm">
          by {who}
        </Text>
      </Table.Td>
    </Table.Tr>
  );
}

function ItemRow({ item }: { item: ActivityItem }) {
  if (item.source === 'event') {
    const { event } = item;
    return (
      <HistoryRow
        at={event.occurredAt}
        who={event.user?.name ?? 'Unknown'}
        title={eventSentence(event)}
        detail={null}
      />
    );
  }
  const { title, detail } = describeKeyEvent(item.change);
  return (
    <HistoryRow
      at={item.change.createdAt}
      who={item.change.actor ? actorName(item.change) : 'System'}
      title={title}
      detail={detail}
    />
  );
}

/** What happened to the key, newest first (GET keys/{id}/history), like the change log. */
export function KeyHistoryCard({ keyId }: { keyId: string }) {
  const history = useKeyHistory(keyId);

  let body;
  if (history.isPending) body = <TableSkeleton rows={3} label="Loading the history" />;
  else if (history.error) {
    body = (
      <QueryError
        title="Could not load the history"
        error={history.error}
        onRetry={() => void history.refetch()}
      />
    );
  } else if (history.data.items.length === 0) {
    body = (
      <Stack align="center" gap={6} py="md" ta="center">
        <IconHistory size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>Nothing recorded yet</Text>
      </Stack>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={300}>
        <Table verticalSpacing="xs" aria-label="Key history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col" visibleFrom="sm">
                Who
              </Table.Th>
              <Table.Th scope="col">What happened</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {history.data.items.map((item) => (
              <ItemRow key={item.source === 'event' ? item.event._id : item.change._id} item={item} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <SectionCard
      title="History"
      description="Created, handed over, returned, linked, and every time it was used at a lock, newest first."
    >
      {body}
    </SectionCard>
  );
}
