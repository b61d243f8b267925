import type { MemberAccessTime } from '@latchkey/shared';
import { Badge } from '@mantine/core';
import { REASON_TEXT } from '@/lib/access-words';

type MyLock = MemberAccessTime['locks'][number];

/** "You can open it now", or why not (outside your schedule, lockout…). */
export function LockNowBadge({ lock }: { lock: MyLock }) {
  return (
    <Badge variant="light" color={lock.canOpen ? 'teal' : 'gray'} size="md" tt="none">
      {lock.canOpen ? 'You can open it now' : lock.reason ? REASON_TEXT[lock.reason] : 'Closed to you now'}
    </Badge>
  );
}
