import type { Device, DeviceInvite, LockStayGuest } from '@latchkey/shared';
import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Divider,
  Group,
  Stack,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconEye,
  IconEyeOff,
  IconMailForward,
  IconPencil,
  IconTrash,
  IconUserPlus,
} from '@tabler/icons-react';
import { Fragment, useId, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { describeWindow } from '@/components/schedule/describe-schedule';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { CREDENTIAL_TEXT } from '@/lib/access-words';
import { errorMessage } from '@/lib/errors';
import { formatCalendarDate, formatDateTime, formatRelative } from '@/lib/format';
import { useDeleteDeviceInvite } from '../api/delete-device-invite';
import { useDeviceInvites } from '../api/get-device-invites';
import { useDeviceStayGuests } from '../api/get-device-stay-guests';
import { useResendDeviceInvite } from '../api/resend-device-invite';
import { InviteGuestModal } from './invite-guest-modal';

const STATE: Record<DeviceInvite['state'], { label: string; color: string }> = {
  upcoming: { label: 'Upcoming', color: 'blue' },
  active: { label: 'Active', color: 'teal' },
  ended: { label: 'Ended', color: 'gray' },
};

/** The guest's code, dots until revealed. */
function MaskedCode({ invite }: { invite: DeviceInvite }) {
  const [shown, setShown] = useState(false);
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="sm" ff="monospace" aria-live="polite">
        {shown ? (
          invite.code
        ) : (
          <>
            <span aria-hidden="true">{'•'.repeat(Math.max(4, invite.code.length))}</span>
            <VisuallyHidden>Hidden</VisuallyHidden>
          </>
        )}
      </Text>
      <Tooltip label={shown ? 'Hide the code' : 'Show the code'} withArrow>
        <ActionIcon
          variant="subtle"
          size="sm"
          onClick={() => setShown((value) => !value)}
          aria-pressed={shown}
          aria-label={`Show the code of ${invite.name}`}
        >
          {shown ? <IconEyeOff size={16} aria-hidden="true" /> : <IconEye size={16} aria-hidden="true" />}
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

function LastSent({ invite }: { invite: DeviceInvite }) {
  if (!invite.lastSentAt) {
    return (
      <Text size="xs" c="dimmed">
        Not sent
      </Text>
    );
  }
  return (
    <Text size="xs" c="dimmed">
      {invite.sentCount > 1 ? `Sent ${invite.sentCount} times, last ` : 'Sent '}
      <time dateTime={invite.lastSentAt} title={formatDateTime(invite.lastSentAt)}>
        {formatRelative(invite.lastSentAt)}
      </time>
    </Text>
  );
}

interface InviteRowProps {
  invite: DeviceInvite;
  resending: boolean;
  onResend: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

function InviteRow({ invite, resending, onResend, onEdit, onDelete }: InviteRowProps) {
  const state = STATE[invite.state];
  const noEmailId = useId();
  const contact = [invite.email, invite.phone].filter(Boolean).join(' · ');
  return (
    <Group justify="space-between" align="flex-start" gap="sm" py="sm" wrap="wrap">
      <Stack gap={4} style={{ flex: '1 1 260px', minWidth: 0 }}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {invite.name}
          </Text>
          <Badge size="sm" variant="light" color={state.color}>
            {state.label}
          </Badge>
        </Group>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {contact || 'No email or phone'}
        </Text>
        <Text size="sm">{describeWindow({ days: invite.days, start: invite.start, end: invite.end })}</Text>
        <Text size="sm" c="dimmed">
          {invite.startDate === invite.endDate
            ? `On ${formatCalendarDate(invite.startDate)}`
            : `${formatCalendarDate(invite.startDate)} – ${formatCalendarDate(invite.endDate)}`}
        </Text>
        <Group gap="md" wrap="wrap" align="center">
          <MaskedCode invite={invite} />
          <LastSent invite={invite} />
        </Group>
      </Stack>
      <Group gap="xs" wrap="nowrap">
        <Tooltip
          label="Add an email to send the invitation"
          disabled={Boolean(invite.email)}
          events={{ hover: true, focus: true, touch: true }}
          withArrow
        >
          <Button
            size="xs"
            variant="default"
            leftSection={<IconMailForward size={16} aria-hidden="true" />}
            loading={resending}
            // Not `disabled`: a disabled button takes no focus, so its tooltip could not be read.
            data-disabled={invite.email ? undefined : true}
            aria-disabled={invite.email ? undefined : true}
            aria-describedby={invite.email ? undefined : noEmailId}
            onClick={(event) => {
              if (!invite.email) event.preventDefault();
              else onResend();
            }}
            aria-label={`Resend the invitation to ${invite.name}`}
          >
            Resend
          </Button>
        </Tooltip>
        {!invite.email && <VisuallyHidden id={noEmailId}>Add an email to send the invitation</VisuallyHidden>}
        <Tooltip label="Edit" withArrow>
          <ActionIcon
            variant="subtle"
            size="lg"
            onClick={onEdit}
            aria-label={`Edit the invite of ${invite.name}`}
          >
            <IconPencil size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
        <Tooltip label="Delete" withArrow>
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            onClick={onDelete}
            aria-label={`Delete the invite of ${invite.name}`}
          >
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        </Tooltip>
      </Group>
    </Group>
  );
}

/** A stay's guest at this lock: their stay (linked), its dates, and what they open it with. */
function StayGuestRow({ guest, now }: { guest: LockStayGuest; now: number }) {
  const active = new Date(guest.validFrom).getTime() <= now;
  return (
    <Group justify="space-between" align="center" gap="sm" py="sm" wrap="wrap">
      <Stack gap={2} style={{ flex: '1 1 220px', minWidth: 0 }}>
        <Anchor
          component={Link}
          to={paths.app.stay.href(guest.listingId, guest.stayId)}
          fw={600}
          size="sm"
          style={{ overflowWrap: 'anywhere' }}
        >
          {guest.guestName}
        </Anchor>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          Stay at {guest.listingTitle}, {formatCalendarDate(guest.startDate)} –{' '}
          {formatCalendarDate(guest.endDate)}
        </Text>
        <Group gap={4} mt={4} wrap="wrap" aria-label="Ways to open">
          {guest.credentials.map((kind) => (
            <Badge key={kind} size="xs" variant="default" tt="none">
              {CREDENTIAL_TEXT[kind]}
            </Badge>
          ))}
        </Group>
      </Stack>
      <Badge variant="light" color={active ? 'teal' : 'blue'} tt="none">
        {active ? 'Staying' : 'Upcoming'}
      </Badge>
    </Group>
  );
}

/**
 * Guests of the rentals' stays: their access comes with the stay (no invite here), so they are
 * listed apart, each linking to the stay where it is changed.
 */
function StayGuestsList({ guests }: { guests: readonly LockStayGuest[] }) {
  // The moment the list was first shown: whether each stay has begun.
  const [now] = useState(() => Date.now());
  return (
    <Stack gap="xs">
      <Title order={3} fz="sm">
        Stay guests
      </Title>
      <Text size="xs" c="dimmed">
        Their access comes with their stay: change it on the stay.
      </Text>
      <Stack gap={0} component="ul" m={0} p={0} aria-label="Stay guests" style={{ listStyle: 'none' }}>
        {guests.map((guest, index) => (
          <Fragment key={guest.stayId}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <StayGuestRow guest={guest} now={now} />
            </li>
          </Fragment>
        ))}
      </Stack>
    </Stack>
  );
}

/** The Guests tab: people without an account who get a code for this lock, on days and times between two dates. */
export function DeviceGuestsTab({ device }: { device: Device }) {
  const invites = useDeviceInvites(device._id);
  const stayGuests = useDeviceStayGuests(device._id);
  const resend = useResendDeviceInvite();
  const remove = useDeleteDeviceInvite();
  // undefined: closed; null: a new invite; an invite: editing it.
  const [editing, setEditing] = useState<DeviceInvite | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<DeviceInvite | null>(null);

  const onSaved = (invite: DeviceInvite, sent: boolean) => {
    const isNew = editing === null;
    setEditing(undefined);
    notifications.show({
      color: 'teal',
      title: isNew ? 'Guest invited' : 'Invite saved',
      message: sent
        ? `The code was emailed to ${invite.email}.`
        : isNew
          ? `Give ${invite.name} their code: ${invite.code}.`
          : `${invite.name}'s invite was saved.`,
    });
  };

  const resendTo = async (invite: DeviceInvite) => {
    try {
      await resend.mutateAsync({ deviceId: device._id, inviteId: invite._id });
      notifications.show({
        color: 'teal',
        title: 'Invitation sent',
        message: `${invite.name}'s invitation was emailed again to ${invite.email}.`,
      });
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not send the invitation',
        message: errorMessage(error),
      });
    }
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    try {
      await remove.mutateAsync({ deviceId: device._id, inviteId: deleting._id });
      notifications.show({
        color: 'teal',
        title: 'Invite deleted',
        message: `${deleting.name}'s code no longer opens ${device.name}.`,
      });
      setDeleting(null);
    } catch (error) {
      notifications.show({
        color: 'red',
        title: 'Could not delete the invite',
        message: errorMessage(error),
      });
    }
  };

  const inviteButton = (
    <Button leftSection={<IconUserPlus size={18} aria-hidden="true" />} onClick={() => setEditing(null)}>
      Invite a guest
    </Button>
  );

  let body;
  if (invites.isPending) body = <TableSkeleton rows={3} label="Loading guests" />;
  else if (invites.error) {
    body = (
      <QueryError
        title="Could not load the guests"
        error={invites.error}
        onRetry={() => void invites.refetch()}
      />
    );
  } else if (invites.data.length === 0 && stayGuests.data?.length) {
    body = null;
  } else if (invites.data.length === 0) {
    body = (
      <Stack align="center" gap={6} py="lg" ta="center">
        <IconUserPlus size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No guests yet</Text>
        <Text size="sm" c="dimmed" maw={420}>
          Invite a cleaner, a tradesperson or a visitor: they get a code for this lock on the days and times
          you choose, and need no account.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Stack gap={0} component="ul" m={0} p={0} aria-label="Guests" style={{ listStyle: 'none' }}>
        {invites.data.map((invite, index) => (
          <Fragment key={invite._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <InviteRow
                invite={invite}
                resending={resend.isPending && resend.variables?.inviteId === invite._id}
                onResend={() => void resendTo(invite)}
                onEdit={() => setEditing(invite)}
                onDelete={() => setDeleting(invite)}
              />
            </li>
          </Fragment>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Guests"
      description={`A code for this lock without an account, on set days and times between two dates (the lock's clock, ${device.timeZone}).`}
      aside={inviteButton}
    >
      <Stack gap="md">
        {body}
        {stayGuests.error ? (
          <QueryError
            title="Could not load the stay guests"
            error={stayGuests.error}
            onRetry={() => void stayGuests.refetch()}
          />
        ) : (
          stayGuests.data &&
          stayGuests.data.length > 0 && (
            <>
              {body && <Divider />}
              <StayGuestsList guests={stayGuests.data} />
            </>
          )
        )}
      </Stack>
      <InviteGuestModal
        opened={editing !== undefined}
        device={device}
        invite={editing ?? null}
        onCancel={() => setEditing(undefined)}
        onSaved={onSaved}
      />
      <ConfirmDialog
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete the guest invite?"
        confirmLabel="Delete invite"
        loading={remove.isPending}
        onConfirm={() => void confirmDelete()}
      >
        {deleting && `${deleting.name}'s code stops opening ${device.name} at once. This cannot be undone.`}
      </ConfirmDialog>
    </SectionCard>
  );
}
