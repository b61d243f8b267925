import type { DeviceCommandRecord } from '@latchkey/shared';

/** How long a pending command may spin without saying more than "waiting". */
export const QUIET_WAIT_MS = 3000;

/**
 * The lock's answer in words, for the person who pressed the button. `elapsedMs` is how long ago
 * the browser got the command back: after a few seconds the words say what is going on and how
 * long the command stays valid (its lifetime, expiresAt − createdAt, both the server's clock, less
 * the time waited, so a browser clock that is off does not change it).
 */
export function commandOutcome(
  command: DeviceCommandRecord,
  lockName: string,
  elapsedMs = 0,
): { tone: 'ok' | 'wait' | 'fail'; text: string } {
  const done = command.action === 'unlock' ? 'unlocked' : 'locked';
  switch (command.status) {
    case 'pending': {
      if (elapsedMs < QUIET_WAIT_MS) return { tone: 'wait', text: `Waiting for ${lockName} to answer…` };
      const lifetimeMs = Date.parse(command.expiresAt) - Date.parse(command.createdAt);
      const leftSeconds = Math.max(0, Math.ceil((lifetimeMs - elapsedMs) / 1000));
      return {
        tone: 'wait',
        text:
          leftSeconds > 0
            ? `Sent; waiting for ${lockName} to answer (expires in ${leftSeconds} s).`
            : `Sent; ${lockName} has not answered and the command is expiring.`,
      };
    }
    case 'ok':
      return { tone: 'ok', text: `${lockName} ${done}.` };
    case 'expired':
      return {
        tone: 'fail',
        text: `${lockName} did not answer in time: it may have just gone offline. Nothing was done.`,
      };
    case 'failed':
      return {
        tone: 'fail',
        text:
          command.error === 'jammed'
            ? `${lockName} tried but is jammed.`
            : command.error === 'busy'
              ? `${lockName} was busy; try again.`
              : command.error === 'unsupported'
                ? `${lockName} cannot do that.`
                : `${lockName} refused.`,
      };
  }
}
