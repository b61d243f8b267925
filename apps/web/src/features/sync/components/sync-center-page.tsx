import type { SyncCenterItem, SyncCenterState } from '@latchkey/shared';
import { Anchor, Badge, Table, Text } from '@mantine/core';
import { IconRefreshDot } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { ListFilters } from '@/components/list-filters';
import { SortableTh } from '@/components/sortable-th';
import { paths } from '@/config/paths';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';
import { useSyncCenter } from '../api/get-sync-center';
import { ListPage } from '@/components/list-page';

const SORT_FIELDS = ['name', 'lastSeenAt', 'pending'] as const;
type SyncSort = (typeof SORT_FIELDS)[number];

const STATES: Record<SyncCenterState, { label: string; color: string }> = {
  in_sync: { label: 'In sync', color: 'teal' },
  pending: { label: 'Pending', color: 'yellow' },
  failing: { label: 'Refused entries', color: 'red' },
  offline: { label: 'Offline', color: 'gray' },
  never_connected: { label: 'Never connected', color: 'gray' },
};
const STATE_OPTIONS = Object.entries(STATES).map(([value, { label }]) => ({ value, label }));

/** The version the lock confirmed against the latest, in words ("v3 of v4", "none yet of v4"). */
function confirmedText(confirmed: number | null, desired: number | null): string {
  if (desired === null) return 'Nothing to send yet';
  if (confirmed === null) return `None yet of v${desired}`;
  return confirmed === desired ? `v${confirmed}, the latest` : `v${confirmed} of v${desired}`;
}

function SyncRow({ lock }: { lock: SyncCenterItem }) {
  const state = STATES[lock.state];
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={paths.app.device.href(lock._id, { tab: 'sync' })} fw={600} size="sm">
          {lock.name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        {/* Its whole label on a phone ("Never connected", not "NEVER CO…"): the table scrolls instead. */}
        <Badge variant="light" color={state.color} tt="none" miw="max-content">
          {state.label}
        </Badge>
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm">{confirmedText(lock.confirmedVersion, lock.desiredVersion)}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">
          {lock.pendingCount === 0 ? 'None' : `${lock.pendingCount} waiting`}
          {lock.rejectedCount > 0 && (
            <Text span c="red" size="sm">
              {' '}
              · {lock.rejectedCount} refused
            </Text>
          )}
        </Text>
      </Table.Td>
      <Table.Td>
        {lock.lastSeenAt ? (
          <Text size="sm" component="time" dateTime={lock.lastSeenAt} title={formatDateTime(lock.lastSeenAt)}>
            {formatRelative(lock.lastSeenAt)}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Never
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * /sync/center (admin): every lock's credential set, desired against confirmed, how many entries
 * are still on their way or were refused, and when the lock was last seen.
 */
export function SyncCenterPage() {
  const list = useListParams<SyncSort>({ sortFields: SORT_FIELDS, defaultSort: 'name' });
  const state = list.param('state');
  const locks = useSyncCenter({
    ...list.query,
    ...(state ? { filterBy: 'state' as const, filterValue: state } : {}),
  });

  return (
    <ListPage
      title="Sync center"
      description="Whether each lock holds the latest codes, cards and schedules: every change makes a new version that the lock must confirm."
      filters={
        <ListFilters
          list={list}
          searchLabel="Search locks"
          searchPlaceholder="Lock name"
          filter={{
            param: 'state',
            label: 'State',
            placeholder: 'Every state',
            data: STATE_OPTIONS,
            value: state || null,
            width: 220,
          }}
        />
      }
      query={locks}
      loadingLabel="Loading the sync center"
      errorTitle="Could not load the sync center"
      filtered={Boolean(list.search || state)}
      empty={
        <EmptyList
          icon={<IconRefreshDot size={28} aria-hidden="true" />}
          title="No locks yet"
          description="Add a lock; once it connects, its credential set shows up here."
        />
      }
      noMatch={
        <EmptyList
          icon={<IconRefreshDot size={28} aria-hidden="true" />}
          title="No lock matches"
          description="Try another search or state."
        />
      }
      list={list}
      noun={['lock', 'locks']}
      minWidth={560}
      tableProps={{ 'aria-label': 'Locks and their credential sync' }}
      table={(items) => (
        <>
          <Table.Thead>
            <Table.Tr>
              <SortableTh {...list.sortProps('name')}>Lock</SortableTh>
              <Table.Th scope="col">State</Table.Th>
              <Table.Th scope="col">Confirmed</Table.Th>
              <SortableTh {...list.sortProps('pending')}>Entries to send</SortableTh>
              <SortableTh {...list.sortProps('lastSeenAt')}>Last seen</SortableTh>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((lock) => (
              <SyncRow key={lock._id} lock={lock} />
            ))}
          </Table.Tbody>
        </>
      )}
    />
  );
}
