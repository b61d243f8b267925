import type { Zone } from '@latchkey/shared';
import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Checkbox,
  Grid,
  Group,
  MultiSelect,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconClockCog, IconLock, IconShieldLock, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { DeleteRecordCard } from '@/components/delete-record-card';
import { QueryError } from '@/components/query-error';
import { RecordPage } from '@/components/record-page';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useApplyZoneTimeZone } from '../api/apply-zone-time-zone';
import { useDeleteZone } from '../api/delete-zone';
import { useZone } from '../api/get-zone';
import { useZoneDevices } from '../api/get-zone-devices';
import { useZonePossibleDevices } from '../api/get-zone-possible-devices';
import { useZones } from '../api/get-zones';
import { useLockOutZone } from '../api/lock-out-zone';
import { useMoveZoneDevices } from '../api/move-zone-devices';
import { zoneKeys } from '../api/query-keys';
import { useUpdateZone } from '../api/update-zone';
import { ZoneForm } from './zone-form';

const locks = (n: number) => `${n} ${n === 1 ? 'lock' : 'locks'}`;

function AddLocks({ zone }: { zone: Zone }) {
  const possible = useZonePossibleDevices(zone._id);
  const zones = useZones();
  const move = useMoveZoneDevices();
  const [chosen, setChosen] = useState<string[]>([]);
  const [takeTimeZone, setTakeTimeZone] = useState(true);
  const zoneName = new Map((zones.data ?? []).map((z) => [z._id, z.name]));
  const options = (possible.data ?? []).map((device) => ({
    value: device._id,
    label: device.zoneId
      ? `${device.name} (now in ${zoneName.get(device.zoneId) ?? 'another zone'})`
      : device.name,
  }));

  const add = async () => {
    try {
      const moved = await move.mutateAsync({ zoneId: zone._id, add: chosen, applyTimeZone: takeTimeZone });
      setChosen([]);
      notifications.show({
        color: 'teal',
        title: 'Locks added to the zone',
        message: `${locks(moved.added)} now in ${zone.name}${
          moved.timeZoneChanged ? `; ${locks(moved.timeZoneChanged)} now on ${zone.timeZone}` : ''
        }.`,
      });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not add the locks', message: errorMessage(error) });
    }
  };

  return (
    <Stack gap="xs">
      <MultiSelect
        label="Add locks"
        placeholder={options.length ? 'Choose locks' : 'Every lock is in this zone'}
        data={options}
        value={chosen}
        onChange={setChosen}
        searchable
        nothingFoundMessage="No lock matches"
        disabled={possible.isPending || options.length === 0}
        comboboxProps={{ withinPortal: true }}
      />
      <Checkbox
        label={`Set their time zone to ${zone.timeZone} (their schedules then run on that clock)`}
        checked={takeTimeZone}
        onChange={(event) => setTakeTimeZone(event.currentTarget.checked)}
      />
      <Group justify="flex-end">
        <Button onClick={() => void add()} disabled={chosen.length === 0} loading={move.isPending}>
          Add to zone
        </Button>
      </Group>
    </Stack>
  );
}

function LocksCard({ zone }: { zone: Zone }) {
  const devices = useZoneDevices(zone._id);
  const move = useMoveZoneDevices();
  const apply = useApplyZoneTimeZone();

  const remove = async (deviceId: string, name: string) => {
    try {
      await move.mutateAsync({ zoneId: zone._id, remove: [deviceId] });
      notifications.show({
        color: 'teal',
        title: 'Lock removed',
        message: `${name} is no longer in ${zone.name}.`,
      });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not remove the lock', message: errorMessage(error) });
    }
  };
  const applyTimeZone = async () => {
    try {
      const { changed } = await apply.mutateAsync(zone._id);
      notifications.show({
        color: 'teal',
        title: 'Time zone applied',
        message: `${locks(changed)} now run on ${zone.timeZone}.`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not apply the time zone',
        message: errorMessage(error),
      });
    }
  };

  let list;
  if (devices.isPending) list = <TableSkeleton rows={3} label="Loading the zone's locks" />;
  else if (devices.error)
    list = (
      <QueryError
        title="Could not load the locks"
        error={devices.error}
        onRetry={() => void devices.refetch()}
      />
    );
  else if (devices.data.length === 0)
    list = (
      <Text size="sm" c="dimmed">
        No locks in this zone yet.
      </Text>
    );
  else
    list = (
      <Table verticalSpacing="xs" aria-label={`Locks in ${zone.name}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Lock</Table.Th>
            <Table.Th scope="col">Time zone</Table.Th>
            <Table.Th scope="col">
              <VisuallyHidden>Remove</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {devices.data.map((device) => (
            <Table.Tr key={device._id}>
              <Table.Td>
                <Anchor component={Link} to={paths.app.device.href(device._id)} size="sm" fw={600}>
                  {device.name}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <Text size="sm">{device.timeZone}</Text>
              </Table.Td>
              <Table.Td ta="right">
                <ActionIcon
                  variant="subtle"
                  color="gray"
                  aria-label={`Remove ${device.name} from the zone`}
                  onClick={() => void remove(device._id, device.name)}
                  loading={move.isPending && move.variables?.remove?.includes(device._id)}
                >
                  <IconX size={16} aria-hidden="true" />
                </ActionIcon>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );

  return (
    <SectionCard
      title="Locks"
      description="A lock is in one zone at most: adding it here takes it out of its other zone."
      aside={<Text size="sm">{locks(zone.lockCount ?? 0)}</Text>}
      h="100%"
    >
      <Stack gap="md">
        {(zone.otherTimeZoneCount ?? 0) > 0 && (
          <Alert color="yellow" icon={<IconClockCog size={18} aria-hidden="true" />} title="Other clocks">
            <Stack gap="xs">
              <Text size="sm">
                {locks(zone.otherTimeZoneCount ?? 0)} here run on another time zone than the zone’s (
                {zone.timeZone}). Their schedules and lockouts are read on their own clock, so nothing changes
                until you apply it.
              </Text>
              <Group>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => void applyTimeZone()}
                  loading={apply.isPending}
                >
                  Use {zone.timeZone} on them
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        {list}
        <AddLocks zone={zone} />
      </Stack>
    </SectionCard>
  );
}

const ENDS = [
  { value: 'open', label: 'Until someone ends it' },
  { value: '1', label: 'In 1 hour' },
  { value: '4', label: 'In 4 hours' },
  { value: '24', label: 'In 1 day' },
  { value: '168', label: 'In 1 week' },
];

function LockOutCard({ zone }: { zone: Zone }) {
  const navigate = useNavigate();
  const lockOut = useLockOutZone();
  const [name, setName] = useState(`${zone.name} locked out`);
  const [ends, setEnds] = useState('open');
  const [exemptAdmins, setExemptAdmins] = useState(true);
  const [confirming, { open, close }] = useDisclosure(false);
  const total = zone.totalLockCount ?? 0;

  const confirm = async () => {
    const from = new Date();
    try {
      const lockout = await lockOut.mutateAsync({
        zoneId: zone._id,
        name: name.trim(),
        from: from.toISOString(),
        until: ends === 'open' ? null : new Date(from.getTime() + Number(ends) * 3_600_000).toISOString(),
        exemptAdmins,
      });
      close();
      notifications.show({
        color: 'teal',
        title: 'Zone locked out',
        message: `${locks(lockout.devices.length)} of ${zone.name} are locked out.`,
      });
      void navigate(paths.app.lockout.href(lockout._id));
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not lock out the zone',
        message: errorMessage(error),
      });
    }
  };

  return (
    <SectionCard
      danger
      title="Lock out this zone"
      description="From now, nobody opens the zone’s locks (and its sub-zones’). Locks moved into the zone later join the lockout; locks moved out leave it."
      h="100%"
    >
      <Stack gap="sm">
        <TextInput
          label="Lockout name"
          value={name}
          maxLength={80}
          required
          onChange={(event) => setName(event.currentTarget.value)}
        />
        <Select
          label="Ends"
          data={ENDS}
          value={ends}
          allowDeselect={false}
          onChange={(value) => setEnds(value ?? 'open')}
          comboboxProps={{ withinPortal: true }}
        />
        <Checkbox
          label="Admins may still open"
          checked={exemptAdmins}
          onChange={(event) => setExemptAdmins(event.currentTarget.checked)}
        />
        <Group>
          <Button
            color="red"
            leftSection={<IconShieldLock size={16} aria-hidden="true" />}
            onClick={open}
            disabled={total === 0 || !name.trim()}
          >
            Lock out zone
          </Button>
          {total === 0 && (
            <Text size="sm" c="dimmed">
              Add locks first.
            </Text>
          )}
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        onClose={close}
        title={`Lock out ${zone.name}?`}
        confirmLabel="Lock out zone"
        loading={lockOut.isPending}
        onConfirm={() => void confirm()}
      >
        {`${locks(total)} will refuse ${exemptAdmins ? 'everyone but admins' : 'everyone'} from now, as soon as each lock receives it.`}
      </ConfirmDialog>
    </SectionCard>
  );
}

function DetailsCard({ zone }: { zone: Zone }) {
  const zones = useZones();
  const update = useUpdateZone();
  return (
    <SectionCard title="Details" h="100%">
      <ZoneForm
        key={zone.updatedAt}
        zones={zones.data ?? []}
        zone={zone}
        defaultTimeZone={zone.timeZone}
        submitLabel="Save changes"
        pending={update.isPending}
        otherwise="Could not save the zone"
        onSubmit={async (values) => {
          const saved = await update.mutateAsync({ zoneId: zone._id, ...values });
          notifications.show({ color: 'teal', title: 'Zone saved', message: `${saved.name} is up to date.` });
        }}
      />
    </SectionCard>
  );
}

function DeleteZoneCard({ zone }: { zone: Zone }) {
  const remove = useDeleteZone();
  const count = zone.lockCount ?? 0;
  return (
    <DeleteRecordCard
      noun="zone"
      name={zone.name}
      description="Its locks stay, in no zone; its sub-zones move up; its lockouts keep the locks they cover."
      consequence={
        count === 0
          ? 'No lock is in this zone.'
          : `${locks(count)} will be in no zone. Nothing else changes for ${count === 1 ? 'it' : 'them'}.`
      }
      remove={() => remove.mutateAsync(zone._id)}
      pending={remove.isPending}
      listHref={paths.app.zones.href()}
      detailKey={zoneKeys.detail(zone._id)}
      h="100%"
    />
  );
}

/** /app/zones/:zoneId (admin): a zone's locks (add, remove, time zone), lock it out, edit, delete. */
export function ZonePage() {
  const { zoneId = '' } = useParams();
  return (
    <RecordPage
      query={useZone(zoneId)}
      noun="zone"
      back={{ to: paths.app.zones.href(), label: 'All zones' }}
      header={(zone) => ({
        title: zone.name,
        description: zone.description || `Time zone ${zone.timeZone}`,
        aside: (
          <Group gap={6}>
            <IconLock size={16} aria-hidden="true" />
            <Text size="sm">{locks(zone.totalLockCount ?? 0)}</Text>
          </Group>
        ),
      })}
    >
      {(zone) => (
        <Grid gap="lg">
          <Grid.Col span={{ base: 12, md: 7 }}>
            <LocksCard zone={zone} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <LockOutCard key={zone._id} zone={zone} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 7 }}>
            <DetailsCard zone={zone} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 5 }}>
            <DeleteZoneCard zone={zone} />
          </Grid.Col>
        </Grid>
      )}
    </RecordPage>
  );
}
