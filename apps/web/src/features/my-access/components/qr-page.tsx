import { Anchor, Button, Center, Image, List, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { connectionOf, qrOpens } from '@/lib/lock-connection';
import { useSession } from '@/lib/session';
import { useMyLocks } from '../api/get-my-access';
import { useQrCode } from '../api/get-qr-code';

/** "1:45" until `expiresAt`, ticking every second; "expired" once past. */
function useTimeLeft(expiresAt: string | undefined): string | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (!expiresAt) return null;
  const seconds = Math.max(0, Math.floor((Date.parse(expiresAt) - now) / 1000));
  if (seconds === 0) return 'expired';
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/**
 * /user/qr: a code to hold to a lock's QR reader. The lock checks it offline (it is signed with the
 * portal's key) and lets the person in as their app would: at their locks, in their times.
 */
export function QrPage() {
  const { data: session } = useSession();
  const userId = session!.user._id;
  const qr = useQrCode(userId);
  const locks = useMyLocks(userId);
  const timeLeft = useTimeLeft(qr.data?.expiresAt);
  // Only locks that took the portal's key (with their first set) check the code: a lock that has
  // never connected is listed apart, so nobody walks to it with a code it cannot read.
  const mine = locks.data?.locks ?? [];
  const openNow = mine.filter((lock) => lock.canOpen && qrOpens(lock));
  const notYet = mine.filter((lock) => lock.canOpen && connectionOf(lock) === 'never');

  let code;
  if (qr.isPending) {
    code = (
      <Center h={320}>
        <Loader aria-label="Making your QR code" />
      </Center>
    );
  } else if (qr.error) {
    code = (
      <QueryError title="Could not make your QR code" error={qr.error} onRetry={() => void qr.refetch()} />
    );
  } else {
    code = (
      <Stack align="center" gap="sm">
        <Paper withBorder radius="lg" p="sm" bg="white">
          <Image
            src={qr.data.qrCode}
            alt="Your QR code for the lock's reader"
            w={{ base: 260, sm: 320 }}
            h={{ base: 260, sm: 320 }}
          />
        </Paper>
        <Text size="sm" role="status" aria-live="polite">
          {timeLeft === 'expired'
            ? 'This code has expired; a new one is on its way.'
            : `Works once, for ${timeLeft}.`}
        </Text>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} aria-hidden="true" />}
          loading={qr.isFetching}
          onClick={() => void qr.refetch()}
        >
          New code
        </Button>
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={760}>
      <PageHeader
        title="Your QR code"
        description="Hold it up to the lock's reader. A new code appears by itself before this one runs out."
      />
      <SectionCard title="Show this at the lock">{code}</SectionCard>
      <SectionCard title="Where it opens now">
        {locks.isPending ? (
          <Loader size="sm" aria-label="Loading your locks" />
        ) : locks.error ? (
          <QueryError
            title="Could not load your locks"
            error={locks.error}
            onRetry={() => void locks.refetch()}
          />
        ) : (
          <Stack gap="sm">
            {openNow.length === 0 ? (
              <Text size="sm">
                None of your locks lets you in right now. See{' '}
                <Anchor component={Link} to={paths.user.home.href()}>
                  Your locks
                </Anchor>{' '}
                for your times.
              </Text>
            ) : (
              <List size="sm" spacing={4} aria-label="Locks you may open now">
                {openNow.map((lock) => (
                  <List.Item key={lock._id}>
                    <Anchor component={Link} to={paths.user.lock.href(lock._id)}>
                      {lock.name}
                    </Anchor>
                    {connectionOf(lock) === 'offline' && (
                      <Text span size="sm" c="dimmed">
                        {' '}
                        (offline: it still reads the code)
                      </Text>
                    )}
                  </List.Item>
                ))}
              </List>
            )}
            {notYet.length > 0 && (
              <List size="sm" spacing={4} aria-label="Locks it cannot open yet">
                {notYet.map((lock) => (
                  <List.Item key={lock._id}>
                    <Anchor component={Link} to={paths.user.lock.href(lock._id)}>
                      {lock.name}
                    </Anchor>
                    <Text span size="sm" c="dimmed">
                      {' '}
                      (never connected: the QR cannot open it until it connects)
                    </Text>
                  </List.Item>
                ))}
              </List>
            )}
          </Stack>
        )}
      </SectionCard>
    </Stack>
  );
}
