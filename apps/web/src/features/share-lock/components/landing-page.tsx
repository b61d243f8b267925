import { ARRIVAL_DETAILS_DAYS_AFTER_CHECK_OUT, type ShareLanding } from '@latchkey/shared';
import {
  Alert,
  Anchor,
  Button,
  Divider,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import {
  IconAlertTriangle,
  IconCircleCheck,
  IconInfoCircle,
  IconKey,
  IconMail,
  IconWifi,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { formatCalendarDate, formatDateTime, formatRange } from '@/lib/format';
import { startSession } from '@/lib/session';
import { useActivateStay, useShareLanding } from '../api/public';
import { ImageCarousel } from './image-carousel';
import classes from './share-lock.module.css';

type Stay = NonNullable<ShareLanding['stay']>;

function Access({ stay, timeZone }: { stay: Stay; timeZone: string }) {
  if (stay.state === 'cancelled' || stay.state === 'declined') {
    return (
      <Alert
        color="gray"
        variant="light"
        icon={<IconInfoCircle aria-hidden="true" />}
        title={`This stay was ${stay.state}`}
      >
        There is no access for it. Contact the host if you think this is wrong.
      </Alert>
    );
  }
  if (stay.state === 'requested') {
    return (
      <Alert
        color="blue"
        variant="light"
        icon={<IconInfoCircle aria-hidden="true" />}
        title="Waiting for the host"
      >
        The host has not answered your request yet.
      </Alert>
    );
  }
  if (!stay.code && stay.accessState === 'none') {
    return (
      <Alert
        color="gray"
        variant="light"
        icon={<IconInfoCircle aria-hidden="true" />}
        title="This stay is over"
      >
        Its code no longer opens the doors. We hope you enjoyed it.
      </Alert>
    );
  }
  if (!stay.code) {
    return (
      <Alert
        color="blue"
        variant="light"
        icon={<Loader size={16} aria-hidden="true" />}
        title="Your access is on its way to the lock"
        role="status"
      >
        We mail you as soon as every lock has confirmed your code.
      </Alert>
    );
  }
  return (
    <Stack gap="md" align="center" role="region" aria-label="Your access">
      <Stack gap={2} align="center">
        <Text size="sm" c="dimmed">
          Your code
        </Text>
        <Text className={classes.code}>{stay.code}</Text>
        <Text size="xs" c="dimmed" ta="center">
          {/* The words of the guest's mail (stays.mail.ts): the locks' clock, its zone named. */}
          {formatRange(stay.accessFrom, stay.accessUntil, timeZone, { weekday: true, zone: true })}
        </Text>
      </Stack>
      {stay.qr ? (
        <Stack gap={4} align="center">
          <img className={classes.qr} src={stay.qr.qrCode} alt="Your QR code: show it at the lock's reader" />
          <Text size="xs" c="dimmed">
            The QR code renews itself while this page is open.
          </Text>
        </Stack>
      ) : (
        <Text size="xs" c="dimmed">
          The QR code shows here during your stay.
        </Text>
      )}
    </Stack>
  );
}

/**
 * Keeping the stay in an account. The guest link is seen by the stay's hosts too, so it proves
 * nothing about the address: someone with an account there enters its password; anyone else gets
 * a link by mail at the stay's address, where its owner chooses a password (/s/account).
 */
function KeepInAccount({ token, stay }: { token: string; stay: Stay }) {
  const activate = useActivateStay(token);
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [open, setOpen] = useState(false);
  const [mailed, setMailed] = useState<string | null>(null);
  if (stay.state !== 'approved') return null;
  if (stay.accountLinked && !open) {
    return (
      <Text size="sm" c="dimmed">
        <IconCircleCheck size={14} aria-hidden="true" /> This stay is kept in your Latchkey account.
      </Text>
    );
  }
  if (mailed) {
    return (
      <Alert
        color="teal"
        variant="light"
        icon={<IconMail aria-hidden="true" />}
        title="Check your mail"
        role="status"
      >
        {mailed}
      </Alert>
    );
  }
  if (!open) {
    return (
      <Button variant="default" onClick={() => setOpen(true)}>
        Keep this stay in an account
      </Button>
    );
  }
  return (
    <form
      aria-label="Keep this stay in an account"
      onSubmit={(event) => {
        event.preventDefault();
        activate.mutate(
          { password },
          {
            onSuccess: async (answer) => {
              if (answer.kind === 'mailed') {
                setMailed(answer.message);
                return;
              }
              startSession(answer.token);
              await navigate(paths.auth.landing.href(), { replace: true });
            },
          },
        );
      }}
    >
      <Stack gap="sm">
        <Text size="sm">
          Have a Latchkey account with the address this stay was booked with? Enter its password. No account
          yet? Leave the password empty: we mail that address a link where you choose one.
        </Text>
        <PasswordInput
          label="Password of your account"
          value={password}
          onChange={(event) => setPassword(event.currentTarget.value)}
          autoComplete="current-password"
        />
        {activate.error && (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(activate.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => setOpen(false)} disabled={activate.isPending}>
            Not now
          </Button>
          <Button type="submit" loading={activate.isPending}>
            {password ? 'Keep it' : 'Mail me a link'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LockInstructions({ lock }: { lock: ShareLanding['locks'][number] }) {
  const empty = !lock.text && !lock.wifiName && !lock.parking && lock.images.length === 0;
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-label={`Arrival: ${lock.name}`}>
      <Stack gap="xs">
        <Group gap={6}>
          <IconKey size={16} aria-hidden="true" />
          <Text fw={600}>{lock.name}</Text>
        </Group>
        {empty && (
          <Text size="sm" c="dimmed">
            No instructions for this door.
          </Text>
        )}
        {lock.text && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {lock.text}
          </Text>
        )}
        {lock.wifiName && (
          <Text size="sm">
            <IconWifi size={14} aria-hidden="true" /> Wi-Fi <strong>{lock.wifiName}</strong>
            {lock.wifiPassword && (
              <>
                , password{' '}
                <Text span ff="monospace">
                  {lock.wifiPassword}
                </Text>
              </>
            )}
          </Text>
        )}
        {lock.parking && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            Parking: {lock.parking}
          </Text>
        )}
        <ImageCarousel images={lock.images} label={`Pictures of the way in: ${lock.name}`} />
      </Stack>
    </Paper>
  );
}

/** /s?t=… (no sign-in): a listing's arrival page, or a guest's own stay with their code and QR code. */
export function LandingPage() {
  const [params] = useSearchParams();
  const token = params.get('t') ?? '';
  const landing = useShareLanding(token);
  if (!token) {
    return (
      <Alert
        color="gray"
        variant="light"
        icon={<IconInfoCircle aria-hidden="true" />}
        title="This page opens from a link"
      >
        Use the link from your host's message or from your booking mail.
      </Alert>
    );
  }
  if (landing.isPending) {
    return (
      <Stack gap="md" role="status" aria-label="Loading your arrival page">
        <Skeleton height={36} width="70%" />
        <Skeleton height={200} radius="md" />
      </Stack>
    );
  }
  if (landing.error) {
    if (isApiError(landing.error) && landing.error.status === 410) {
      return (
        <Alert
          color="gray"
          variant="light"
          icon={<IconInfoCircle aria-hidden="true" />}
          title="This link no longer works"
        >
          The stay it was for was cancelled or declined, so it shows nothing any more. Contact the host if you
          think this is wrong.
        </Alert>
      );
    }
    if (isApiError(landing.error) && (landing.error.status === 404 || landing.error.status === 400)) {
      return (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle aria-hidden="true" />}
          title="This link does not open anything"
        >
          It may be old (the host made a new one) or cut short. Ask your host for the current link.
        </Alert>
      );
    }
    return (
      <QueryError
        title="Could not load the page"
        error={landing.error}
        onRetry={() => void landing.refetch()}
      />
    );
  }
  const { listing, locks, stay } = landing.data;
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          {stay ? `Welcome, ${stay.guestName}` : listing.title}
        </Title>
        {stay && <Text fw={600}>{listing.title}</Text>}
        {listing.address && <Text size="sm">{listing.address}</Text>}
        <Text size="sm" c="dimmed">
          {stay
            ? `${formatCalendarDate(stay.startDate)} (check-in ${stay.checkInTime}) to ${formatCalendarDate(stay.endDate)} (check-out ${stay.checkOutTime})`
            : `Check-in ${listing.checkInTime} · check-out ${listing.checkOutTime}`}
        </Text>
      </Stack>
      {stay && (
        <Paper withBorder radius="md" p="md">
          <Access stay={stay} timeZone={listing.timeZone} />
        </Paper>
      )}
      <ImageCarousel images={listing.images} label={`Pictures of ${listing.title}`} />
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Getting in
        </Title>
        {stay && !stay.arrivalShown ? (
          <Text size="sm" c="dimmed">
            The arrival instructions (door, Wi-Fi, parking) were shown until{' '}
            {formatDateTime(stay.arrivalUntil, listing.timeZone, { zone: true })},{' '}
            {ARRIVAL_DETAILS_DAYS_AFTER_CHECK_OUT} days after check-out.
          </Text>
        ) : (
          locks.map((lock) => <LockInstructions key={lock.name} lock={lock} />)
        )}
      </Stack>
      {listing.houseRules && (
        <Stack gap={4}>
          <Title order={2} fz="lg">
            House rules
          </Title>
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {listing.houseRules}
          </Text>
        </Stack>
      )}
      {stay && (
        <>
          <Divider />
          <KeepInAccount token={token} stay={stay} />
        </>
      )}
      {!stay && listing.requestPath && (
        <Anchor component={Link} to={listing.requestPath}>
          Request a stay here
        </Anchor>
      )}
    </Stack>
  );
}
