import { Box, Group, Text } from '@mantine/core';
import { formatDateTime } from '@/lib/format';
import { connectionOf, connectionText, type LockLink } from '@/lib/lock-connection';

const DOT = { online: 'teal', offline: 'gray', never: 'yellow' } as const;

/**
 * "Online", "Offline, last seen 2 hours ago" or "Never connected", with a coloured dot. Plain text
 * that wraps rather than a badge: a badge cuts its label on a phone ("NEVER CO…").
 */
export function LockConnectionStatus({ lock, size = 'sm' }: { lock: LockLink; size?: 'xs' | 'sm' }) {
  const state = connectionOf(lock);
  return (
    <Group gap={6} wrap="nowrap" align="center" component="span">
      <Box
        component="span"
        aria-hidden="true"
        w={8}
        h={8}
        bg={`${DOT[state]}.6`}
        style={{ borderRadius: '50%', flexShrink: 0 }}
      />
      <Text
        size={size}
        component="span"
        c={state === 'online' ? undefined : 'dimmed'}
        title={lock.lastSeenAt ? `Last seen ${formatDateTime(lock.lastSeenAt)}` : undefined}
      >
        {connectionText(lock)}
      </Text>
    </Group>
  );
}
