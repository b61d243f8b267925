import type { UserSync } from '@latchkey/shared';
import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { PersonSelect } from '@/features/people-picker/components/person-select';
import { QueryError } from '@/components/query-error';
import { TableSkeleton } from '@/components/table-skeleton';
import { CREDENTIAL_TEXT } from '@/lib/access-words';
import { hasRequiredRole } from '@/lib/authorization';
import { LockConnectionStatus } from '@/components/lock-connection-status';
import { connectionOf, type ConnectionState } from '@/lib/lock-connection';
import { useSession } from '@/lib/session';
import { useUserSync } from '../api/get-user-sync';

const STATE = {
  pending: { label: 'Pending', color: 'gray' },
  sent: { label: 'Sent', color: 'blue' },
  confirmed: { label: 'On the lock', color: 'teal' },
  rejected: { label: 'Refused', color: 'red' },
} as const;
const REJECTION = {
  unsupported_kind: 'the lock has no reader for it',
  invalid_secret: 'the lock cannot store it',
  storage_full: 'the lock is full',
} as const;

/**
 * A credential's state in words: "sent" means published to the broker, which is not "on its way"
 * to a lock that is not connected. Such a lock takes it when it connects (or comes back).
 */
function stateOf(credential: UserSync['locks'][number]['credentials'][number], connection: ConnectionState) {
  if (credential.state === 'pending' || credential.state === 'sent') {
    if (connection === 'never') return { label: 'Waiting for the lock to connect', color: 'yellow' };
    if (connection === 'offline') return { label: 'Waiting: the lock is offline', color: 'gray' };
  }
  return STATE[credential.state];
}

function StateBadge({ state }: { state: { label: string; color: string } }) {
  return (
    <Badge
      variant="light"
      color={state.color}
      tt="none"
      // Its full words on a phone too: it wraps instead of ending in "…".
      h="auto"
      style={{ whiteSpace: 'normal', textAlign: 'right', lineHeight: 1.3 }}
      styles={{ label: { overflow: 'visible', whiteSpace: 'normal' } }}
    >
      {state.label}
    </Badge>
  );
}

function LockCard({ lock }: { lock: UserSync['locks'][number] }) {
  const connection = connectionOf(lock);
  return (
    <Paper withBorder radius="lg" p="md" component="li" style={{ listStyle: 'none' }}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600}>{lock.name}</Text>
          <LockConnectionStatus lock={lock} size="xs" />
        </Group>
        {lock.credentials.length === 0 ? (
          <Text size="sm" c="dimmed">
            Not computed for this lock yet.
          </Text>
        ) : (
          <Stack gap={6} component="ul" p={0} m={0} aria-label={`Credentials on ${lock.name}`}>
            {lock.credentials.map((credential) => (
              <Group
                key={credential.credentialId}
                component="li"
                gap="xs"
                justify="space-between"
                wrap="nowrap"
              >
                <Text size="sm">{CREDENTIAL_TEXT[credential.kind]}</Text>
                <Group gap={6} wrap="nowrap">
                  {credential.reason && (
                    <Text size="xs" c="red">
                      {REJECTION[credential.reason]}
                    </Text>
                  )}
                  <StateBadge state={stateOf(credential, connection)} />
                </Group>
              </Group>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * /sync/user: one person's credentials (code, cards, app…) on each lock they reach, and whether
 * each lock holds them yet. Admins choose the person; a basic user sees their own.
 */
export function UserSyncPage() {
  const { data: session } = useSession();
  const [searchParams, setSearchParams] = useSearchParams();
  const isAdmin = hasRequiredRole(session!.roles, ['admin']);
  const userId = isAdmin ? searchParams.get('userId') : session!.user._id;
  const sync = useUserSync(userId);

  let body;
  if (userId === null) {
    body = (
      <EmptyList
        icon={<IconLock size={28} aria-hidden="true" />}
        title="Choose a person"
        description="Their codes, cards and app access on each of their locks show here."
      />
    );
  } else if (sync.isPending) body = <TableSkeleton rows={3} label="Loading their credentials" />;
  else if (sync.error) {
    body = (
      <QueryError
        title="Could not load the credentials"
        error={sync.error}
        onRetry={() => void sync.refetch()}
      />
    );
  } else if (sync.data.locks.length === 0) {
    body = (
      <EmptyList
        icon={<IconLock size={28} aria-hidden="true" />}
        title="No locks"
        description="They have no access to any lock yet."
      />
    );
  } else {
    body = (
      <Stack gap="md" component="ul" p={0} m={0} aria-label="Locks">
        {sync.data.locks.map((lock) => (
          <LockCard key={lock._id} lock={lock} />
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="lg" maw={760}>
      <PageHeader
        title="Credentials on locks"
        description="Every change reaches each lock as a new version of its set; here is where each credential stands."
      />
      {isAdmin && (
        <PersonSelect
          label="Person"
          placeholder="Search by name or email"
          value={userId}
          onChange={(id) => setSearchParams(id ? { userId: id } : {}, { replace: true })}
        />
      )}
      {body}
    </Stack>
  );
}
