import type { AccessDenialReason } from '@latchkey/shared';
import { Alert, Group, Stack, Text } from '@mantine/core';
import { useParams } from 'react-router';
import { BackLink } from '@/components/back-link';
import { LockConnectionStatus } from '@/components/lock-connection-status';
import { MissingRecord } from '@/components/missing-record';
import { PageHeader } from '@/components/page-header';
import { RemoteCommandPanel } from '@/components/remote-command-panel';
import { QueryError } from '@/components/query-error';
import { ReportProblemLink } from '@/components/report-problem-link';
import { describeWindow, describeDates } from '@/components/schedule/describe-schedule';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { useRemoteCommand } from '@/features/devices/api/send-remote-command';
import { formatDateTime, formatRelative } from '@/lib/format';
import { connectionOf, remoteUnavailable, type LockLink } from '@/lib/lock-connection';
import { useSession } from '@/lib/session';
import { useMyLocks } from '../api/get-my-access';
import { CarryAccessPanel } from './carry-access-panel';
import { LockNowBadge } from './lock-now-badge';

/**
 * "Unlock now" and the lock's answer, followed while this section is shown; disabled, with the
 * reason, while the lock is not connected (the server would refuse the command at once).
 */
function OpenRemotely({ lock }: { lock: LockLink & { _id: string; name: string } }) {
  const remote = useRemoteCommand(lock._id);
  return (
    <RemoteCommandPanel
      remote={remote}
      lockName={lock.name}
      withLock={false}
      unavailable={remoteUnavailable(lock)}
    />
  );
}

/** /user/locks/{lockId}: one of the person's locks: can they open it now, and when they may. */
export function MyLockPage() {
  const { lockId } = useParams();
  const { data: session } = useSession();
  const locks = useMyLocks(session!.user._id);

  if (locks.isPending) return <TableSkeleton rows={4} label="Loading the lock" />;
  if (locks.error) {
    return (
      <QueryError title="Could not load the lock" error={locks.error} onRetry={() => void locks.refetch()} />
    );
  }
  const lock = locks.data.locks.find((candidate) => candidate._id === lockId);
  if (!lock)
    return <MissingRecord what="This lock" backTo={paths.user.home.href()} backLabel="Back to your locks" />;
  const dates = lock.schedule && describeDates(lock.schedule);
  const connection = connectionOf(lock);

  return (
    <Stack gap="lg" maw={760}>
      <BackLink to={paths.user.home.href()} label="Your locks" />
      <PageHeader
        title={lock.name}
        description={`Now ${formatDateTime(locks.data.at, lock.timeZone, { weekday: true, zone: true })}`}
        aside={
          <Stack gap={6} align="flex-start">
            <LockNowBadge lock={lock} />
            <LockConnectionStatus lock={lock} />
          </Stack>
        }
      />
      {connection === 'never' && (
        <Alert color="yellow" variant="light" title={`${lock.name} has never connected`}>
          It has not received your access yet, so nothing opens it for now: not the app, your QR code, your
          code or your card. It takes your access as soon as it connects.
        </Alert>
      )}
      {/* A lock that has never connected has no portal key yet: nothing carried would be taken. */}
      {!lock.online && lock.lastSeenAt && (
        <SectionCard
          title="This lock is offline"
          description={`Last heard from ${formatRelative(lock.lastSeenAt)}. It has not heard of changes made since; your phone can bring it your latest access: show the code at the lock's reader.`}
        >
          <CarryAccessPanel deviceId={lock._id} lockName={lock.name} />
        </SectionCard>
      )}
      <SectionCard
        title="Open it from here"
        description={
          connection === 'online'
            ? 'It is online: it opens within seconds.'
            : 'Only while it is online: the app reaches the lock over its connection.'
        }
      >
        {lock.canOpen && lock.credentials.includes('remote') ? (
          <OpenRemotely lock={lock} />
        ) : (
          <Text size="sm" c="dimmed">
            Not right now: {lock.reason ? YOUR_REASON[lock.reason] : 'you may not open it at this time'}.
          </Text>
        )}
      </SectionCard>
      <SectionCard title="When you may open it" description="Times are the lock's own local time.">
        {lock.schedule === null ? (
          <Text size="sm">Any time{dates ? ` · ${dates}` : ''}.</Text>
        ) : (
          <Stack gap={6} component="ul" aria-label="Your opening times" p={0} m={0}>
            {lock.schedule.windows.map((window, index) => (
              <Group key={index} component="li" gap="xs" style={{ listStyle: 'none' }}>
                <Text size="sm">{describeWindow(window)}</Text>
              </Group>
            ))}
            {dates && (
              <Text size="sm" c="dimmed">
                {dates}
              </Text>
            )}
          </Stack>
        )}
      </SectionCard>
      <SectionCard title="How you open it" description="What this lock knows you by.">
        <Text size="sm">
          {lock.credentials.length === 0
            ? 'Nothing yet: ask your portal admin for a code or a card.'
            : lock.credentials.map((kind) => HOW[kind]).join(' · ')}
        </Text>
        {connection === 'offline' && lock.credentials.length > 0 && (
          <Text size="sm" c="dimmed" mt={6}>
            While it is offline, your code, card and QR code work if it took them before it went offline (it
            decides on its own); the app does not.
          </Text>
        )}
      </SectionCard>
      <ReportProblemLink />
    </Stack>
  );
}

/** Why the person may not open it now, said to them. */
const YOUR_REASON: Record<AccessDenialReason, string> = {
  outside_schedule: 'it is outside your opening times',
  suspended: 'your access is suspended',
  lockout: 'a lockout is in effect',
  not_yet_valid: 'your access has not started yet',
  expired: 'your access has expired',
  unknown_credential: 'this lock does not know you yet',
};

const HOW = {
  code: 'Your keypad code',
  rfid: 'Your card',
  fingerprint: 'Your fingerprint',
  key: 'Your key',
  qr: 'Your QR code',
  remote: 'This app or your QR code',
} as const;
