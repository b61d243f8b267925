import type { DeviceCommandRecord } from '@latchkey/shared';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useEffect, useId, useState } from 'react';
import { errorMessage } from '@/lib/errors';
import { commandOutcome } from '@/lib/remote-command';

const TONE_COLORS = { ok: 'teal', wait: 'gray', fail: 'red' } as const;

/** A remote command being sent and followed: the devices feature's `useRemoteCommand`. */
export interface RemoteCommand {
  send: { mutate: (action: 'unlock' | 'lock') => void; error: unknown };
  /** The command sent last, with the lock's answer once it comes. */
  command: DeviceCommandRecord | null;
  /** When the browser got that command back (Date.now()), to say how long it has waited. */
  sentAt: number | null;
  pending: boolean;
}

/** Now, once a second while `running` (the wait's words change as it goes on). */
function useTicking(running: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  return now;
}

/**
 * Unlock (and, for admins, lock) buttons and the lock's answer. The server refuses a basic user
 * the lock would refuse, so the button only needs to be offered when access says they may open.
 * The screen passes the command (`useRemoteCommand(lockId)`): shared parts call no endpoint.
 * A lock that is not connected (`unavailable`: why, from lib/lock-connection) gets disabled
 * buttons and the reason beside them: the server would refuse the command at once anyway.
 */
export function RemoteCommandPanel({
  remote,
  lockName,
  withLock = true,
  unavailable = null,
  unlockUnavailable = null,
  size = 'sm',
}: {
  remote: RemoteCommand;
  lockName: string;
  /** Offer "Lock now" too (admins); a basic user only opens. */
  withLock?: boolean;
  /** Why no command can be sent now (the lock is offline or never connected), or null. */
  unavailable?: string | null;
  /** Why the lock may be locked but not opened now (a lockout that keeps admins out), or null. */
  unlockUnavailable?: string | null;
  /** Smaller buttons for a page header. */
  size?: 'xs' | 'sm';
}) {
  const { send, command, pending, sentAt } = remote;
  const waiting = command?.status === 'pending';
  const now = useTicking(waiting);
  const outcome = command ? commandOutcome(command, lockName, sentAt === null ? 0 : now - sentAt) : null;
  const reasonId = useId();
  const disabled = pending || unavailable !== null;
  const describedBy = unavailable ? reasonId : undefined;
  // A lock that is not connected says that; else a lockout may hold the unlock alone.
  const unlockReason = unavailable ?? unlockUnavailable;
  return (
    <Stack gap="xs">
      <Group gap="sm">
        <Button
          size={size}
          leftSection={<IconLockOpen size={18} aria-hidden="true" />}
          onClick={() => send.mutate('unlock')}
          disabled={disabled || unlockReason !== null}
          aria-label={`Unlock ${lockName} now`}
          aria-describedby={unlockReason ? reasonId : undefined}
        >
          Unlock now
        </Button>
        {withLock && (
          <Button
            size={size}
            variant="default"
            leftSection={<IconLock size={18} aria-hidden="true" />}
            onClick={() => send.mutate('lock')}
            disabled={disabled}
            aria-label={`Lock ${lockName} now`}
            aria-describedby={describedBy}
          >
            Lock now
          </Button>
        )}
      </Group>
      {unlockReason && (
        <Text id={reasonId} size="sm" c="dimmed" maw={420}>
          {unlockReason}
        </Text>
      )}
      {/* Once the lock shows as not connected, the reason above says what the refusal said. */}
      {Boolean(send.error) && !unavailable && (
        <Alert color="red" variant="light" role="alert" maw={420}>
          {errorMessage(send.error)}
        </Alert>
      )}
      {outcome && (
        <Group gap="xs" role="status" aria-live="polite" wrap="nowrap" maw={420}>
          {outcome.tone === 'wait' && <Loader size="xs" aria-hidden="true" style={{ flexShrink: 0 }} />}
          <Text size="sm" c={TONE_COLORS[outcome.tone]} fw={outcome.tone === 'wait' ? 400 : 600}>
            {outcome.text}
          </Text>
        </Group>
      )}
    </Stack>
  );
}
