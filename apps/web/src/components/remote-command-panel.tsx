import type { DeviceCommandRecord } from '@latchkey/shared';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { errorMessage } from '@/lib/errors';
import { commandOutcome } from '@/lib/remote-command';

const TONE_COLORS = { ok: 'teal', wait: 'gray', fail: 'red' } as const;

/** A remote command being sent and followed: the devices feature's `useRemoteCommand`. */
export interface RemoteCommand {
  send: { mutate: (action: 'unlock' | 'lock') => void; error: unknown };
  /** The command sent last, with the lock's answer once it comes. */
  command: DeviceCommandRecord | null;
  pending: boolean;
}

/**
 * Unlock (and, for admins, lock) buttons and the lock's answer. The server refuses a basic user
 * the lock would refuse, so the button only needs to be offered when access says they may open.
 * The screen passes the command (`useRemoteCommand(lockId)`): shared parts call no endpoint.
 */
export function RemoteCommandPanel({
  remote,
  lockName,
  withLock = true,
}: {
  remote: RemoteCommand;
  lockName: string;
  /** Offer "Lock now" too (admins); a basic user only opens. */
  withLock?: boolean;
}) {
  const { send, command, pending } = remote;
  const outcome = command ? commandOutcome(command) : null;
  return (
    <Stack gap="sm">
      <Group gap="sm">
        <Button
          leftSection={<IconLockOpen size={18} aria-hidden="true" />}
          onClick={() => send.mutate('unlock')}
          disabled={pending}
          aria-label={`Unlock ${lockName} now`}
        >
          Unlock now
        </Button>
        {withLock && (
          <Button
            variant="default"
            leftSection={<IconLock size={18} aria-hidden="true" />}
            onClick={() => send.mutate('lock')}
            disabled={pending}
            aria-label={`Lock ${lockName} now`}
          >
            Lock now
          </Button>
        )}
      </Group>
      {Boolean(send.error) && (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(send.error)}
        </Alert>
      )}
      {outcome && (
        <Group gap="xs" role="status" aria-live="polite">
          {outcome.tone === 'wait' && <Loader size="xs" aria-hidden="true" />}
          <Text size="sm" c={TONE_COLORS[outcome.tone]} fw={outcome.tone === 'wait' ? 400 : 600}>
            {outcome.text}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
