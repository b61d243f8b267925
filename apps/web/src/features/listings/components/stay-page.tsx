import {
  describeQuote,
  formatCalendarRange,
  formatClock,
  type Stay,
  type StayAccess,
} from '@latchkey/shared';
import {
  Alert,
  Anchor,
  Button,
  CopyButton,
  Group,
  Loader,
  Modal,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconClock, IconCopy, IconInfoCircle } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { useParams } from 'react-router';
import { ClockInput } from '@/components/clock-input';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatRange, formatRelative } from '@/lib/format';
import { useStay, useStayAction } from '../api/stays';
import { AccessStateBadge, describeDates, LockAccessBadge, STAY_ORIGINS, StayStateBadge } from './stay-text';
import { RecordPage } from '@/components/record-page';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text component="dt" size="sm" c="dimmed" w={110} style={{ flexShrink: 0 }}>
        {term}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function GuestCard({ stay }: { stay: Stay }) {
  return (
    <SectionCard title="Guest">
      <Stack gap={6} component="dl" m={0}>
        <Fact term="Name">{stay.guestName}</Fact>
        <Fact term="Email">
          {/* A booking imported from another calendar may come without an address. */}
          {stay.guestEmail ? (
            <Anchor href={`mailto:${stay.guestEmail}`} size="sm">
              {stay.guestEmail}
            </Anchor>
          ) : (
            'Not given'
          )}
        </Fact>
        <Fact term="Phone">{stay.guestPhone ?? 'Not given'}</Fact>
        <Fact term={STAY_ORIGINS[stay.source].verb}>
          {formatRelative(stay.createdAt)} {STAY_ORIGINS[stay.source].how}
        </Fact>
        {stay.note && (
          <Fact term="Note">
            <span style={{ whiteSpace: 'pre-line' }}>{stay.note}</span>
          </Fact>
        )}
      </Stack>
    </SectionCard>
  );
}

function DatesCard({ stay }: { stay: Stay }) {
  return (
    <SectionCard title="Stay" description={`On the locks' clock (${stay.timeZone}).`}>
      <Stack gap={6} component="dl" m={0}>
        <Fact term="Dates">{describeDates(stay)}</Fact>
        {/* One clock on the card: the locks', in the words of the guest's mail. */}
        <Fact term="Check-in">{formatClock(stay.checkInTime, stay.timeZone, { zone: true })}</Fact>
        <Fact term="Check-out">{formatClock(stay.checkOutTime, stay.timeZone, { zone: true })}</Fact>
        <Fact term="Access">
          {formatRange(stay.accessFrom, stay.accessUntil, stay.timeZone, { weekday: true, zone: true })}
        </Fact>
        {stay.source === 'request' && (
          <Fact term="Quoted">
            {stay.quote ? `${describeQuote(stay.quote)} (not paid through Latchkey)` : 'Price on request'}
          </Fact>
        )}
      </Stack>
    </SectionCard>
  );
}

/** Arrival, departure and times: what approving with other dates, or changing a stay, sends. */
function DatesForm({
  stay,
  submitLabel,
  onSubmit,
  loading,
  extra,
}: {
  stay: Stay;
  submitLabel: string;
  onSubmit: (values: {
    startDate: string;
    endDate: string;
    checkInTime: string;
    checkOutTime: string;
  }) => void;
  loading: boolean;
  extra?: ReactNode;
}) {
  const [values, setValues] = useState({
    startDate: stay.startDate,
    endDate: stay.endDate,
    checkInTime: stay.checkInTime,
    checkOutTime: stay.checkOutTime,
  });
  const set = (key: keyof typeof values) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setValues({ ...values, [key]: event.currentTarget.value });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit(values);
      }}
      aria-label={submitLabel}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm">
          <TextInput
            type="date"
            label="Arrival"
            required
            value={values.startDate}
            onChange={set('startDate')}
          />
          <TextInput
            type="date"
            label="Departure"
            required
            value={values.endDate}
            onChange={set('endDate')}
          />
          <ClockInput label="Check-in" required value={values.checkInTime} onChange={set('checkInTime')} />
          <ClockInput label="Check-out" required value={values.checkOutTime} onChange={set('checkOutTime')} />
        </SimpleGrid>
        <Group justify="flex-end" gap="sm">
          {extra}
          <Button type="submit" loading={loading}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ReasonDialog({
  opened,
  onClose,
  title,
  label,
  confirmLabel,
  required,
  loading,
  onConfirm,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  label: string;
  confirmLabel: string;
  required: boolean;
  loading: boolean;
  onConfirm: (reason: string) => void;
  children: ReactNode;
}) {
  const [reason, setReason] = useState('');
  return (
    <Modal opened={opened} onClose={onClose} title={title} closeButtonProps={{ 'aria-label': 'Close' }}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          onConfirm(reason.trim());
        }}
      >
        <Stack gap="md">
          <Text size="sm">{children}</Text>
          <Textarea
            label={label}
            required={required}
            maxLength={500}
            autosize
            minRows={2}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={loading}>
              Back
            </Button>
            <Button type="submit" color="red" loading={loading} disabled={required && !reason.trim()}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RequestActions({ stay }: { stay: Stay }) {
  const act = useStayAction(stay.listingId, stay._id);
  const [declining, setDeclining] = useState(false);
  const full = stay.capacity.filter((lock) => !lock.fits);
  const run = (action: Parameters<typeof act.mutate>[0], done: string) =>
    act.mutate(action, {
      onSuccess: () => {
        setDeclining(false);
        notifications.show({ color: 'teal', title: done, message: stay.guestName });
      },
      onError: (error) =>
        notifications.show({ color: 'red', title: 'That did not work', message: errorMessage(error) }),
    });
  return (
    <SectionCard
      title="Answer the request"
      description="Approving gives the guest their code on every lock of the listing at once; they are mailed when every lock has confirmed it."
    >
      <Stack gap="md">
        {stay.quote && (
          <Text size="sm">
            The request page quoted <strong>{describeQuote(stay.quote)}</strong>; you settle payment with the
            guest.
          </Text>
        )}
        {stay.conflicts.length > 0 && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden="true" />}
            title="These nights are taken"
          >
            {stay.conflicts
              .map((c) => `${c.guestName} stays ${formatCalendarRange(c.startDate, c.endDate)}`)
              .join('; ')}
            . Change the dates or decline.
          </Alert>
        )}
        <Table.ScrollContainer minWidth={300}>
          <Table verticalSpacing={6} aria-label="Room on each lock">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Lock</Table.Th>
                <Table.Th scope="col">Credentials now</Table.Th>
                <Table.Th scope="col">With this stay</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {stay.capacity.map((lock) => (
                <Table.Tr key={lock.deviceId}>
                  <Table.Td>
                    <Text size="sm">{lock.name}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {lock.used} of {lock.capacity}
                      {lock.counts === 'codes' ? ' codes' : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" c={lock.fits ? undefined : 'red'} fw={lock.fits ? undefined : 600}>
                      {lock.withStay} of {lock.capacity}
                      {lock.counts === 'codes' ? ' codes' : ''}
                      {lock.fits ? '' : ': does not fit'}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {full.length > 0 && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden="true" />}
            title="A lock is full"
          >
            {full.map((lock) => lock.name).join(', ')} cannot hold another guest. Finished stays are freed
            first when you approve; remove codes the lock no longer needs if that is not enough.
          </Alert>
        )}
        <DatesForm
          stay={stay}
          submitLabel="Approve"
          loading={act.isPending && act.variables?.action === 'approve'}
          onSubmit={(values) => run({ action: 'approve', ...values }, 'Approved')}
          extra={
            <Button variant="default" color="red" onClick={() => setDeclining(true)}>
              Decline
            </Button>
          }
        />
      </Stack>
      <ReasonDialog
        opened={declining}
        onClose={() => setDeclining(false)}
        title={`Decline ${stay.guestName}'s request?`}
        label="Reason (sent to the guest)"
        confirmLabel="Decline"
        required
        loading={act.isPending}
        onConfirm={(reason) => run({ action: 'decline', reason }, 'Declined')}
      >
        The guest gets a mail with your reason.
      </ReasonDialog>
    </SectionCard>
  );
}

function AccessRow({ access, timeZone }: { access: StayAccess; timeZone: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600} size="sm">
            {access.holder === 'guest' ? `Guest: ${access.name}` : access.name}
          </Text>
          <Text size="sm">
            Code{' '}
            <Text span ff="monospace" fw={700} size="md" style={{ letterSpacing: 2 }}>
              {access.removed ? '—' : access.code}
            </Text>
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {access.removed
            ? 'Taken off the locks.'
            : formatRange(access.validFrom, access.validUntil, timeZone, { zone: true })}
        </Text>
        {!access.removed && (
          <Stack gap={4}>
            {access.locks.map((lock) => (
              <Group key={lock.deviceId} gap="xs" wrap="wrap">
                <Text size="sm" w={160}>
                  {lock.name}
                </Text>
                <LockAccessBadge access={lock} />
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function AccessCard({ stay }: { stay: Stay }) {
  const act = useStayAction(stay.listingId, stay._id);
  const [cancelling, setCancelling] = useState(false);
  const [resending, setResending] = useState(false);
  const live = stay.access.filter((a) => !a.removed);
  const landing = stay.landingPath ? `${window.location.origin}${stay.landingPath}` : null;
  const status =
    stay.accessState === 'waiting' ? (
      <Alert
        color="blue"
        variant="light"
        icon={<Loader size={16} aria-hidden="true" />}
        title="Waiting for the lock"
      >
        The code is on its way to the locks. The guest is mailed once every lock has confirmed it; you are
        alerted if one refuses it or does not answer.
      </Alert>
    ) : stay.accessState === 'ready' ? (
      <Alert color="teal" variant="light" icon={<IconCheck aria-hidden="true" />} title="On every lock">
        {stay.guestMailedAt
          ? `The guest was mailed ${formatRelative(stay.guestMailedAt)}.`
          : 'Every lock has confirmed the access.'}
      </Alert>
    ) : stay.accessState === 'failed' ? (
      <Alert
        color="red"
        variant="light"
        icon={<IconAlertTriangle aria-hidden="true" />}
        title="A lock refused the access"
      >
        The guest has not been mailed. See which lock below; its reason tells what to do.
      </Alert>
    ) : (
      <Alert
        color="gray"
        variant="light"
        icon={<IconClock aria-hidden="true" />}
        title="No access on the locks"
      >
        The stay is over, so its codes were taken off the locks.
      </Alert>
    );
  return (
    <SectionCard title="Access" aside={<AccessStateBadge state={stay.accessState} />}>
      <Stack gap="md">
        <div role="status" aria-live="polite">
          {status}
        </div>
        {live.length === 0 && stay.access.length === 0 ? null : (
          <Stack gap="sm">
            {stay.access.map((access) => (
              <AccessRow key={access._id} access={access} timeZone={stay.timeZone} />
            ))}
          </Stack>
        )}
        {landing && (
          <Group gap="xs" align="flex-end" wrap="wrap">
            <TextInput
              label="The guest's page (code, QR code, arrival instructions)"
              value={landing}
              readOnly
              style={{ flex: '1 1 260px' }}
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton value={landing} timeout={2000}>
              {({ copied, copy }) => (
                <Button
                  variant="default"
                  onClick={copy}
                  leftSection={<IconCopy size={14} aria-hidden="true" />}
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
        )}
        <Title order={3} fz="md">
          Change the stay
        </Title>
        <Text size="sm" c="dimmed">
          Extend, shorten or give a late check-out: the locks get the new times at once, and the guest is
          mailed once they confirm.
        </Text>
        <DatesForm
          key={stay.updatedAt}
          stay={stay}
          submitLabel="Save the change"
          loading={act.isPending && act.variables?.action === 'change'}
          onSubmit={(values) =>
            act.mutate(
              { action: 'change', ...values },
              {
                onSuccess: () =>
                  notifications.show({
                    color: 'teal',
                    title: 'Stay changed',
                    message: 'The locks are getting the new times.',
                  }),
                onError: (error) =>
                  notifications.show({
                    color: 'red',
                    title: 'Could not change the stay',
                    message: errorMessage(error),
                  }),
              },
            )
          }
          extra={
            <>
              {stay.accessState === 'ready' && (
                <Button variant="default" onClick={() => setResending(true)}>
                  Mail the guest again
                </Button>
              )}
              <Button variant="default" color="red" onClick={() => setCancelling(true)}>
                Cancel the stay
              </Button>
            </>
          }
        />
      </Stack>
      <ReasonDialog
        opened={cancelling}
        onClose={() => setCancelling(false)}
        title={`Cancel ${stay.guestName}'s stay?`}
        label="Reason (sent to the guest, optional)"
        confirmLabel="Cancel the stay"
        required={false}
        loading={act.isPending}
        onConfirm={(reason) =>
          act.mutate(
            { action: 'cancel', reason },
            {
              onSuccess: () => {
                setCancelling(false);
                notifications.show({
                  color: 'teal',
                  title: 'Stay cancelled',
                  message: 'The codes are being taken off the locks.',
                });
              },
              onError: (error) =>
                notifications.show({ color: 'red', title: 'Could not cancel', message: errorMessage(error) }),
            },
          )
        }
      >
        The guest's code stops working on every lock at once, and they get a mail.
      </ReasonDialog>
      <ConfirmDialog
        opened={resending}
        onClose={() => setResending(false)}
        title="Mail the guest again?"
        confirmLabel="Send"
        color="blue"
        loading={act.isPending}
        onConfirm={() =>
          act.mutate(
            { action: 'resend' },
            {
              onSuccess: () => {
                setResending(false);
                notifications.show({ color: 'teal', title: 'Mail sent', message: stay.guestEmail });
              },
              onError: (error) =>
                notifications.show({ color: 'red', title: 'Could not send', message: errorMessage(error) }),
            },
          )
        }
      >
        {`The guest gets their code and page link again at ${stay.guestEmail}.`}
      </ConfirmDialog>
    </SectionCard>
  );
}

/** /app/listing/:listingId/request/:reqId (admin): the share-lock approval screen of one stay. */
export function StayPage() {
  const { listingId = '', reqId = '' } = useParams();
  return (
    <RecordPage
      query={useStay(listingId, reqId)}
      noun="request"
      back={{ to: paths.app.listing.href(listingId), label: 'The listing' }}
      header={(stay) => ({
        back: { to: paths.app.listing.href(listingId), label: stay.listingTitle },
        title: stay.state === 'requested' ? `Request from ${stay.guestName}` : `${stay.guestName}'s stay`,
        description: `${stay.listingTitle} · ${describeDates(stay)}`,
        aside: <StayStateBadge state={stay.state} size="lg" />,
      })}
    >
      {(stay) => (
        <>
          {(stay.state === 'declined' || stay.state === 'cancelled') && (
            <Alert
              color="gray"
              variant="light"
              icon={<IconInfoCircle aria-hidden="true" />}
              title={stay.state === 'declined' ? 'Declined' : 'Cancelled'}
            >
              {stay.reason ? `Reason: ${stay.reason}` : 'No reason given.'}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <GuestCard stay={stay} />
            <DatesCard stay={stay} />
          </SimpleGrid>
          {stay.state === 'requested' && <RequestActions stay={stay} />}
          {stay.state === 'approved' && <AccessCard stay={stay} />}
        </>
      )}
    </RecordPage>
  );
}
