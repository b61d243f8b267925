import type { Device, DeviceCreated } from '@latchkey/shared';
import { Alert, Anchor, Box, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBatteryOff, IconDialpad, IconLock, IconLockPlus, IconShieldLock } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { OneTimeSecretModal } from '@/components/one-time-secret-modal';
import { ListFilters } from '@/components/list-filters';
import {
  BulkBar,
  SelectAllTh,
  SelectRowTd,
  useRowSelection,
  type RowSelection,
} from '@/components/list-selection';
import { SortableTh } from '@/components/sortable-th';
import { paths } from '@/config/paths';
import { useListParams } from '@/lib/use-list-params';
import { useSession } from '@/lib/session';
import { useDevices } from '../api/get-devices';
import { useLowBatteryDevices } from '../api/get-low-battery-devices';
import { AddCodeLockModal } from './add-code-lock-modal';
import { AddDeviceModal } from './add-device-modal';
import { BatteryLevel, LastSeen, MODEL_OPTIONS, modelLabel } from './device-status';
import { LockBrokerAddress } from './lock-broker-address';
import { ListPage } from '@/components/list-page';
import { ZoneFilter } from '@/features/zones/components/zone-filter';

const SORT_FIELDS = ['name', 'model', 'timeZone', 'battery', 'lastSeenAt', 'createdAt'] as const;
type DeviceSort = (typeof SORT_FIELDS)[number];

const NO_WRAP = { whiteSpace: 'nowrap' } as const;

function LowBatteryAlert() {
  const { data } = useLowBatteryDevices();
  if (!data || data.length === 0) return null;
  const shown = data.slice(0, 3);
  return (
    <Alert
      color="yellow"
      variant="light"
      icon={<IconBatteryOff aria-hidden="true" />}
      title={`${data.length} ${data.length === 1 ? 'lock needs' : 'locks need'} new batteries`}
    >
      <Group gap="xs" wrap="wrap">
        {shown.map((device) => (
          <Anchor key={device._id} component={Link} to={paths.app.device.href(device._id)} size="sm">
            {device.name} ({device.battery ?? '?'}%)
          </Anchor>
        ))}
        {data.length > shown.length && (
          <Text size="sm" c="dimmed">
            and {data.length - shown.length} more
          </Text>
        )}
      </Group>
    </Alert>
  );
}

function DeviceRow({ device, selection }: { device: Device; selection: RowSelection }) {
  return (
    <Table.Tr>
      <SelectRowTd selection={selection} id={device._id} label={`Choose ${device.name}`} />
      <Table.Td>
        <Anchor component={Link} to={paths.app.device.href(device._id)} fw={600} size="sm">
          {device.name}
        </Anchor>
        {device.serial && (
          <Text size="xs" c="dimmed" truncate="end" maw={240}>
            Serial {device.serial}
          </Text>
        )}
        {/* On phones the model and last contact ride along under the name. */}
        <Stack gap={4} mt={4} hiddenFrom="sm">
          <Text size="xs" c="dimmed">
            {modelLabel(device.model)} · {device.timeZone}
          </Text>
          <LastSeen device={device} />
        </Stack>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{modelLabel(device.model)}</Text>
      </Table.Td>
      <Table.Td visibleFrom="md">
        <Text size="sm">{device.timeZone}</Text>
      </Table.Td>
      <Table.Td style={NO_WRAP}>
        <BatteryLevel device={device} />
      </Table.Td>
      <Table.Td visibleFrom="sm" style={NO_WRAP}>
        <LastSeen device={device} />
      </Table.Td>
    </Table.Tr>
  );
}

/** /app/device (admin): the portal's locks, searchable and sortable, "Add lock" and "Add code lock". */
export function DevicesPage() {
  const navigate = useNavigate();
  const { data: session } = useSession();
  const list = useListParams<DeviceSort>({ sortFields: SORT_FIELDS, defaultSort: 'name' });
  const selection = useRowSelection();
  const model = list.param('model');
  // One filter at a time (the list's filterBy): a model, else a zone (with its sub-zones).
  const zone = model ? '' : list.param('zone');
  const params = {
    ...list.query,
    ...(model ? { filterBy: 'model' as const, filterValue: model } : {}),
    ...(zone ? { filterBy: 'zone' as const, filterValue: zone } : {}),
  };
  const devices = useDevices(params);
  const [adding, { open: openAdd, close: closeAdd }] = useDisclosure(false);
  const [addingCodeLock, { open: openAddCodeLock, close: closeAddCodeLock }] = useDisclosure(false);
  const [created, setCreated] = useState<DeviceCreated | null>(null);
  const defaultTimeZone = session?.portal?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;

  const onCreated = (result: DeviceCreated) => {
    setCreated(result);
    notifications.show({
      color: 'teal',
      title: 'Lock added',
      message: `${result.device.name} was added.`,
    });
  };
  const filtered = Boolean(list.search || model || zone);

  const addButton = (
    <Button leftSection={<IconLockPlus size={18} aria-hidden="true" />} onClick={openAdd}>
      Add lock
    </Button>
  );
  const addButtons = (
    <Group gap="sm" wrap="wrap">
      <Button
        variant="default"
        leftSection={<IconDialpad size={18} aria-hidden="true" />}
        onClick={openAddCodeLock}
      >
        Add code lock
      </Button>
      {addButton}
    </Group>
  );

  return (
    <ListPage
      title="Locks"
      description="The portal's smart locks: who can open each one, and when."
      actions={addButtons}
      notice={<LowBatteryAlert />}
      bulkBar={
        <BulkBar selection={selection} noun={['lock', 'locks']}>
          {/* A lockout already names a set of locks: the form opens with the chosen ones. */}
          <Button
            size="xs"
            color="red"
            leftSection={<IconShieldLock size={16} aria-hidden="true" />}
            onClick={() =>
              void navigate(paths.app.lockoutEdit.href('new', { locks: selection.ids.join(',') }))
            }
          >
            Lock out…
          </Button>
        </BulkBar>
      }
      filters={
        <Group gap="sm" align="flex-start" wrap="wrap">
          <Box style={{ flex: '1 1 480px' }}>
            <ListFilters
              list={list}
              searchLabel="Search locks"
              searchPlaceholder="Name or serial"
              filter={{
                param: 'model',
                label: 'Model',
                placeholder: 'All models',
                data: MODEL_OPTIONS,
                value: model || null,
                width: 240,
              }}
            />
          </Box>
          <ZoneFilter
            value={zone || null}
            onChange={(value) => list.setParams({ zone: value, model: null })}
            w={220}
            mb="md"
          />
        </Group>
      }
      query={devices}
      loadingLabel="Loading locks"
      errorTitle="Could not load the locks"
      filtered={filtered}
      empty={
        <EmptyList
          invite
          icon={<IconLock size={28} aria-hidden="true" />}
          title="No locks yet"
          description="Add your first lock: you will get the secret it uses to connect, then choose who may open it and when."
          action={addButtons}
        />
      }
      noMatch={
        <NoMatchList
          title="No locks match"
          description="Try another name or serial, or another model."
          showAll="Show all locks"
          onShowAll={() => list.setParams({ model: null, zone: null, search: null })}
        />
      }
      list={list}
      noun={['lock', 'locks']}
      minWidth={320}
      table={(items) => (
        <>
          <Table.Thead>
            <Table.Tr>
              <SelectAllTh
                selection={selection}
                ids={items.map((device) => device._id)}
                label="Choose every lock shown"
              />
              <SortableTh {...list.sortProps('name')}>Name</SortableTh>
              <SortableTh {...list.sortProps('model')} visibleFrom="sm">
                Model
              </SortableTh>
              <SortableTh {...list.sortProps('timeZone')} visibleFrom="md">
                Time zone
              </SortableTh>
              <SortableTh {...list.sortProps('battery')}>Battery</SortableTh>
              <SortableTh {...list.sortProps('lastSeenAt')} visibleFrom="sm">
                Last seen
              </SortableTh>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((device) => (
              <DeviceRow key={device._id} device={device} selection={selection} />
            ))}
          </Table.Tbody>
        </>
      )}
    >
      <AddDeviceModal
        opened={adding}
        defaultTimeZone={defaultTimeZone}
        onCancel={closeAdd}
        onCreated={(result) => {
          closeAdd();
          onCreated(result);
        }}
      />
      <AddCodeLockModal
        opened={addingCodeLock}
        defaultTimeZone={defaultTimeZone}
        onCancel={closeAddCodeLock}
        onCreated={(result) => {
          closeAddCodeLock();
          onCreated(result);
        }}
      />
      <OneTimeSecretModal
        secret={created?.deviceSecret ?? null}
        onClose={() => setCreated(null)}
        title={`Connect ${created?.device.name ?? 'the lock'}`}
        label="Device secret"
        description={
          <>
            The lock (or its bridge) connects to <LockBrokerAddress /> with its lock ID{' '}
            <strong>{created?.device._id}</strong> and this secret. Enter all three in its setup.
          </>
        }
        actions={
          created && (
            <Button
              variant="default"
              onClick={() => {
                const id = created.device._id;
                setCreated(null);
                void navigate(paths.app.device.href(id));
              }}
            >
              Open the lock
            </Button>
          )
        }
      />
    </ListPage>
  );
}
