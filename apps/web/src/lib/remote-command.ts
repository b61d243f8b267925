import type { DeviceCommandRecord } from '@latchkey/shared';

/** The lock's answer in words, for the person who pressed the button. */
export function commandOutcome(command: DeviceCommandRecord): { tone: 'ok' | 'wait' | 'fail'; text: string } {
  const done = command.action === 'unlock' ? 'unlocked' : 'locked';
  switch (command.status) {
    case 'pending':
      return { tone: 'wait', text: 'Waiting for the lock to answer…' };
    case 'ok':
      return { tone: 'ok', text: `The lock ${done}.` };
    case 'expired':
      return { tone: 'fail', text: 'The lock did not answer in time. It may be offline; nothing was done.' };
    case 'failed':
      return {
        tone: 'fail',
        text:
          command.error === 'jammed'
            ? 'The lock tried but is jammed.'
            : command.error === 'busy'
              ? 'The lock was busy; try again.'
              : command.error === 'unsupported'
                ? 'This lock cannot do that.'
                : 'The lock refused.',
      };
  }
}
