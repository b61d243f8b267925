import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { errorMessage } from '@/lib/errors';
import { useRemoteCommand } from '@/features/devices/api/send-remote-command';
import { commandOutcome } from '@/lib/remote-command';

const TONE_COLORS = { ok: 'teal', wait: 'gray', fail: 'red' } as const;

/**
 * Unlock (and, for admins, lock) buttons and the lock's answer. The server refuses a basic user
 * the lock would refuse, so the button only needs to be offered when access says they may open.
 */
export function RemoteCommandPanel({
  deviceId,
  lockName,
  withLock = true,
}: {
  deviceId: string;
  lockName: string;
  /** Offer "Lock now" too (admins); a basic user only opens. */
  withLock?: boolean;
}) {
  const { send, command, pending } = useRemoteCommand(deviceId);
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
      {send.error && (
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
