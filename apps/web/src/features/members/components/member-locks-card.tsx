import type { MemberAccessTime, MemberDevice, PortalMember } from '@latchkey/shared';
import { Anchor, Badge, Divider, Group, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { notifyUndoable } from '@/components/access/undo-notification';
import { IconLock, IconLockOpenOff } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { AccessScheduleDialog } from '@/components/access/access-schedule-dialog';
import { AccessRowActions, AccessScheduleLine } from '@/components/access/access-row-parts';
import { AccessVia } from '@/components/access/access-via';
import { groupNames } from '@/components/access/group-names';
import { AddPicker } from '@/components/add-picker';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { useGiveDirectAccess } from '@/features/devices/api/give-direct-access';
import { useRemoveDirectAccess } from '@/features/devices/api/remove-direct-access';
import { paths } from '@/config/paths';
import { CREDENTIAL_TEXT, REASON_TEXT } from '@/lib/access-words';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { displayName } from '@/lib/session';
import { useMemberAccessNow, useMemberDevices } from '../api/get-member-devices';
import { useLockOptions } from '@/features/devices/api/get-devices';
import { useAccessSchedule } from '@/features/devices/api/get-access-schedule';
import { useSetAccessSchedule } from '@/features/devices/api/set-access-schedule';

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

/** A lock's answer, with the instant it was checked at. */
type AccessNow = MemberAccessTime['locks'][number] & Pick<MemberAccessTime, 'at'>;

/** "Can open now" or why not, from the same engine as the lock's "Who can open" tab. */
function AccessNowBadge({ now }: { now: AccessNow | undefined }) {
  if (!now) return null;
  return (
    <Badge
      size="sm"
      variant="light"
      color={now.canOpen ? 'teal' : 'gray'}
      title={`At the lock: ${formatDateTime(now.at, now.timeZone, { weekday: true, zone: true })}`}
    >
      {now.canOpen ? 'Can open now' : now.reason ? REASON_TEXT[now.reason] : 'Cannot open now'}
    </Badge>
  );
}

interface LockRowProps {
  lock: MemberDevice;
  now: AccessNow | undefined;
  onEditSchedule: () => void;
  onRemove: () => void;
}

function LockRow({ lock, now, onEditSchedule, onRemove }: LockRowProps) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm" py="sm" wrap="wrap">
      <Stack gap={6} style={{ flex: '1 1 260px', minWidth: 0 }}>
        <Group gap="xs" wrap="wrap">
          <Anchor component={Link} to={paths.app.device.href(lock._id)} fw={600} size="sm">
            {lock.name}
          </Anchor>
          <Text size="xs" c="dimmed">
            {lock.timeZone}
          </Text>
          <AccessNowBadge now={now} />
        </Group>
        {/* How they open this lock (the same words as its "Who can open" tab). */}
        {now && now.credentials.length > 0 && (
          <Group gap={4} wrap="wrap" aria-label={`Ways to open ${lock.name}`}>
            {now.credentials.map((kind) => (
              <Badge key={kind} size="xs" variant="default" tt="none">
                {CREDENTIAL_TEXT[kind]}
              </Badge>
            ))}
          </Group>
        )}
        <AccessVia via={lock.via} />
        <AccessScheduleLine schedule={lock.schedule} />
      </Stack>
      <AccessRowActions
        direct={lock.via.direct}
        editLabel={`Edit schedule at ${lock.name}`}
        removeLabel={`Remove direct access to ${lock.name}`}
        removeIcon={<IconLockOpenOff size={18} aria-hidden="true" />}
        onEditSchedule={onEditSchedule}
        onRemove={onRemove}
      />
    </Group>
  );
}

/** The locks a person can reach (directly or through groups), with their schedules. */
export function MemberLocksCard({ member }: { member: PortalMember }) {
  const locks = useMemberDevices(member._id);
  const accessNow = useMemberAccessNow(member._id);
  const nowByLock = new Map(
    (accessNow.data?.locks ?? []).map((lock) => [lock._id, { ...lock, at: accessNow.data!.at }]),
  );
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search, 250);
  const lockOptions = useLockOptions(debouncedSearch);
  const give = useGiveDirectAccess();
  const remove = useRemoveDirectAccess();
  const [editing, setEditing] = useState<MemberDevice | null>(null);
  const [removing, setRemoving] = useState<MemberDevice | null>(null);
  const name = displayName(member);

  const direct = new Set((locks.data ?? []).filter((lock) => lock.via.direct).map((lock) => lock._id));
  const options = (lockOptions.data?.items ?? [])
    .filter((lock) => !direct.has(lock._id))
    .map((lock) => ({ value: lock._id, label: lock.name }));

  const giveAccess = async (deviceId: string) => {
    const lock = lockOptions.data?.items.find((item) => item._id === deviceId);
    try {
      await give.mutateAsync({ userId: member._id, deviceId });
      notifications.show({
        color: 'teal',
        title: 'Access given',
        message: `${name} can open ${lock?.name ?? 'the lock'} at any time. Set a schedule to limit it.`,
      });
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not give access', message: errorMessage(error) });
      throw error;
    }
  };

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      const target = { userId: member._id, deviceId: removing._id };
      const lockName = removing.name;
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
  if (locks.isPending) list = <TableSkeleton rows={3} label="Loading locks" />;
  else if (locks.error) {
    list = (
      <QueryError title="Could not load the locks" error={locks.error} onRetry={() => void locks.refetch()} />
    );
  } else if (locks.data.length === 0) {
    list = (
      <Stack align="center" gap={6} py="lg" ta="center">
        <IconLock size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No locks yet</Text>
        <Text size="sm" c="dimmed">
          Give {name} access to a lock above, or add them to a group.
        </Text>
      </Stack>
    );
  } else {
    list = (
      <Stack gap={0} component="ul" m={0} p={0} aria-label="Their locks" style={{ listStyle: 'none' }}>
        {locks.data.map((lock, index) => (
          <Fragment key={lock._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <LockRow
                lock={lock}
                now={nowByLock.get(lock._id)}
                onEditSchedule={() => setEditing(lock)}
                onRemove={() => setRemoving(lock)}
              />
            </li>
          </Fragment>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Locks"
      description={
        <>
          Locks they can open, directly or through a group, and when.{' '}
          <Anchor component={Link} to={paths.sync.user.href({ userId: member._id })} size="sm">
            Is each lock up to date?
          </Anchor>
        </>
      }
      aside={
        locks.data && (
          <Badge variant="light" size="lg">
            {locks.data.length}
          </Badge>
        )
      }
    >
      <Stack gap="md">
        <AddPicker
          label="Give access to a lock"
          placeholder="Search the portal's locks"
          options={options}
          actionLabel="Give access"
          loading={lockOptions.isPending}
          onSearchChange={setSearch}
          nothingFound="No lock matches"
          onAdd={giveAccess}
        />
        <Divider />
        {list}
      </Stack>
      {editing && <EditScheduleDialog person={member} lock={editing} onClose={() => setEditing(null)} />}
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
            ? `${name} keeps access to ${removing.name} through ${groupNames(removing.via)}: access through groups remains.`
            : `${name} will no longer be able to open ${removing.name}.`)}
      </ConfirmDialog>
    </SectionCard>
  );
}
