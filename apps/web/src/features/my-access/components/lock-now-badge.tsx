import type { MemberAccessTime } from '@latchkey/shared';
import { Badge } from '@mantine/core';
import { REASON_TEXT } from '@/lib/access-words';
import { connectionOf } from '@/lib/lock-connection';

type MyLock = MemberAccessTime['locks'][number];

/**
 * "You can open it now", or why not (outside your schedule, lockout…). A lock that has never
 * connected has none of the person's credentials yet, so their access does not open it yet.
 */
export function LockNowBadge({ lock }: { lock: MyLock }) {
  const never = connectionOf(lock) === 'never';
  const text = !lock.canOpen
    ? lock.reason
      ? REASON_TEXT[lock.reason]
      : 'Closed to you now'
    : never
      ? 'Not connected yet'
      : 'You can open it now';
  return (
    <Badge
      variant="light"
      color={lock.canOpen ? (never ? 'yellow' : 'teal') : 'gray'}
      size="md"
      tt="none"
      // Its full words on a phone too: it wraps instead of ending in "…".
      h="auto"
      style={{ whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.3 }}
      styles={{ label: { overflow: 'visible', whiteSpace: 'normal' } }}
    >
      {text}
    </Badge>
  );
}
