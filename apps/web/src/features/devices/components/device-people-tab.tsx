import type { Device, DeviceUser } from '@latchkey/shared';
import { Anchor, Badge, Divider, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { notifyUndoable } from '@/components/access/undo-notification';
import { IconUserMinus, IconUsers } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { AccessScheduleDialog } from '@/components/access/access-schedule-dialog';
import { AccessRowActions, AccessScheduleLine } from '@/components/access/access-row-parts';
import { AccessVia } from '@/components/access/access-via';
import { groupNames } from '@/components/access/group-names';
import { AddPicker } from '@/components/add-picker';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { MemberStatusBadge } from '@/components/member-badges';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { useGiveDirectAccess } from '../api/give-direct-access';
import { useRemoveDirectAccess } from '../api/remove-direct-access';
import { errorMessage } from '@/lib/errors';
import { displayName } from '@/lib/session';
import { useDevicePossibleUsers } from '../api/get-device-possible-users';
import { useDeviceUsers } from '../api/get-device-users';
import { useAccessSchedule } from '../api/get-access-schedule';
import { useSetAccessSchedule } from '../api/set-access-schedule';

/** The schedule dialog with its schedule read afresh: mounted only while open. */
function EditScheduleDialog({
  person,
  lock,
  onClose,
}: {
  person: { _id: string; firstName: string; lastName: string; email: string };
  lock: { _id: string; name: string; timeZone: string };
  onClose: () => void;
}) {
  const query = useAccessSchedule(lock._id, person._id);
  const save = useSetAccessSchedule();
  return <AccessScheduleDialog person={person} lock={lock} query={query} save={save} onClose={onClose} />;
}

interface PersonRowProps {
  person: DeviceUser;
  onEditSchedule: () => void;
  onRemove: () => void;
}

function PersonRow({ person, onEditSchedule, onRemove }: PersonRowProps) {
  const name = displayName(person);
  return (
    <Group justify="space-between" align="flex-start" gap="sm" py="sm" wrap="wrap">
      <Stack gap={6} style={{ flex: '1 1 260px', minWidth: 0 }}>
        <Group gap="xs" wrap="wrap">
          <Anchor component={Link} to={paths.app.member.href(person._id)} fw={600} size="sm">
            {name}
          </Anchor>
          {person.role === 'admin' && (
            <Badge size="xs" variant="light" color="indigo">
              Admin
            </Badge>
          )}
          {person.status !== 'active' && <MemberStatusBadge status={person.status} size="xs" />}
        </Group>
        {name !== person.email && (
          <Text size="xs" c="dimmed" mt={-4} style={{ overflowWrap: 'anywhere' }}>
            {person.email}
          </Text>
        )}
        <AccessVia via={person.via} />
        <AccessScheduleLine schedule={person.schedule} />
      </Stack>
      <AccessRowActions
        direct={person.via.direct}
        editLabel={`Edit schedule of ${name}`}
        removeLabel={`Remove direct access of ${name}`}
        removeIcon={<IconUserMinus size={18} aria-hidden="true" />}
        onEditSchedule={onEditSchedule}
        onRemove={onRemove}
      />
    </Group>
  );
}

/** The People tab: who may use the lock, how, when; give and remove direct access; edit schedules. */
export function DevicePeopleTab({ device }: { device: Device }) {
  const users = useDeviceUsers(device._id);
  const possible = useDevicePossibleUsers(device._id);
  const give = useGiveDirectAccess();
  const remove = useRemoveDirectAccess();
  const [editing, setEditing] = useState<DeviceUser | null>(null);
  const [removing, setRemoving] = useState<DeviceUser | null>(null);

  const options = (possible.data ?? []).map((person) => ({
    value: person._id,
    label: displayName(person) === person.email ? person.email : `${displayName(person)} (${person.email})`,
  }));

  const giveAccess = async (userId: string) => {
    const person = possible.data?.find((p) => p._id === userId);
    try {
      await give.mutateAsync({ deviceId: device._id, userId });
      notifications.show({
        color: 'teal',
        title: 'Access given',
        message: `${person ? displayName(person) : 'They'} can open ${device.name} at any time. Set a schedule to limit it.`,
      });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not give access', message: errorMessage(error) });
      throw error;
    }
  };

  const confirmRemove = async () => {
    if (!removing) return;
    const name = displayName(removing);
    try {
      const target = { deviceId: device._id, userId: removing._id };
      const lockName = device.name;
      // What Undo gives back: the direct access and the schedule it had (read before it goes).
      const schedule = removing.schedule;
      await remove.mutateAsync(target);
      notifyUndoable({
        title: 'Direct access removed',
        message:
          removing.via.groups.length > 0
            ? `${name} can still open ${lockName} through ${groupNames(removing.via)}.`
            : `${name} can no longer open ${lockName}.`,
        undo: () => give.mutateAsync({ ...target, schedule }),
        undone: `${name} has direct access to ${lockName} again, with the same schedule.`,
      });
      setRemoving(null);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not remove access', message: errorMessage(error) });
    }
  };

  let list;
  if (users.isPending) list = <TableSkeleton rows={3} label="Loading people" />;
  else if (users.error) {
    list = (
      <QueryError
        title="Could not load the people"
        error={users.error}
        onRetry={() => void users.refetch()}
      />
    );
  } else if (users.data.length === 0) {
    list = (
      <Stack align="center" gap={6} py="lg" ta="center">
        <IconUsers size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>Nobody can use this lock yet</Text>
        <Text size="sm" c="dimmed">
          Give people access above, or add the lock to a group.
        </Text>
      </Stack>
    );
  } else {
    list = (
      <Stack gap={0} component="ul" m={0} p={0} aria-label="People with access" style={{ listStyle: 'none' }}>
        {users.data.map((person, index) => (
          <Fragment key={person._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <PersonRow
                person={person}
                onEditSchedule={() => setEditing(person)}
                onRemove={() => setRemoving(person)}
              />
            </li>
          </Fragment>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="People with access"
      description={`Directly or through a group. Schedules follow the lock's clock (${device.timeZone}).`}
      aside={
        users.data && (
          <Badge variant="light" size="lg">
            {users.data.length}
          </Badge>
        )
      }
    >
      <Stack gap="md">
        <AddPicker
          label="Give access to"
          placeholder="Choose a person"
          options={options}
          actionLabel="Give access"
          nothingFound="Nobody matches"
          loading={possible.isPending}
          onAdd={giveAccess}
          emptyText={
            possible.data && (
              <Text size="sm" c="dimmed">
                Everyone in the portal already has access to this lock.
              </Text>
            )
          }
        />
        <Divider />
        {list}
      </Stack>
      {editing && <EditScheduleDialog person={editing} lock={device} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        title="Remove direct access?"
        confirmLabel="Remove direct access"
        loading={remove.isPending}
        onConfirm={() => void confirmRemove()}
      >
        {removing &&
          (removing.via.groups.length > 0
            ? `${displayName(removing)} keeps access through ${groupNames(removing.via)}: access through groups remains until they leave the group or the lock leaves it.`
            : `${displayName(removing)} will no longer be able to open ${device.name}.`)}
      </ConfirmDialog>
    </SectionCard>
  );
}
