import type { Device } from '@latchkey/shared';
import { Anchor, Table, Text } from '@mantine/core';
import { IconWifi } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { SortableTh } from '@/components/sortable-th';
import { paths } from '@/config/paths';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';
import { useDevices } from '../api/get-devices';
import { BatteryLevel, modelLabel } from './device-status';
import { ListPage } from '@/components/list-page';

const SORT_FIELDS = ['lastSeenAt', 'name'] as const;
type OfflineSort = (typeof SORT_FIELDS)[number];

function SeenLast({ device }: { device: Device }) {
  if (!device.lastSeenAt) {
    return (
      <Text size="sm" c="dimmed">
        Never connected
      </Text>
    );
  }
  return (
    <Text size="sm">
      Last seen{' '}
      <time dateTime={device.lastSeenAt} title={formatDateTime(device.lastSeenAt)}>
        {formatRelative(device.lastSeenAt)}
      </time>
    </Text>
  );
}

function OfflineRow({ device }: { device: Device }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={paths.app.device.href(device._id)} fw={600} size="sm">
          {device.name}
        </Anchor>
        <Text size="xs" c="dimmed">
          {modelLabel(device.model)}
        </Text>
      </Table.Td>
      <Table.Td>
        <SeenLast device={device} />
      </Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <BatteryLevel device={device} />
      </Table.Td>
    </Table.Tr>
  );
}

/** /app/offline (admin): the locks that are not connected, the longest silent first. */
export function OfflineDevicesPage() {
  const list = useListParams<OfflineSort>({ sortFields: SORT_FIELDS, defaultSort: 'lastSeenAt' });
  const devices = useDevices({ ...list.query, filterBy: 'online', filterValue: 'false' });

  const allOnline = (
    <EmptyList
      icon={<IconWifi size={28} aria-hidden="true" />}
      title="All locks are online"
      description="Every lock is connected. A lock that stops reporting, or has never connected, shows up here."
    />
  );

  return (
    <ListPage
      title="Offline locks"
      description="Locks that are not connected now: they keep their last codes, but changes reach them only once they are back."
      query={devices}
      loadingLabel="Loading offline locks"
      errorTitle="Could not load the offline locks"
      filtered={false}
      empty={allOnline}
      noMatch={allOnline}
      list={list}
      noun={['offline lock', 'offline locks']}
      minWidth={320}
      table={(items) => (
        <>
          <Table.Thead>
            <Table.Tr>
              <SortableTh {...list.sortProps('name')}>Name</SortableTh>
              <SortableTh {...list.sortProps('lastSeenAt')}>Last seen</SortableTh>
              <Table.Th scope="col">Battery</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((device) => (
              <OfflineRow key={device._id} device={device} />
            ))}
          </Table.Tbody>
        </>
      )}
    />
  );
}
