import { Button, Image, Paper, Stack, Text } from '@mantine/core';
import { IconDeviceMobileUp } from '@tabler/icons-react';
import { QueryError } from '@/components/query-error';
import { formatTime } from '@/lib/format';
import { useCarryAccess } from '../api/carry-access';

/**
 * For a lock that has lost its connection: the person's phone brings it their latest access (a
 * change the admin made since it went offline), as a signed code shown at the lock's reader.
 */
export function CarryAccessPanel({ deviceId, lockName }: { deviceId: string; lockName: string }) {
  const carry = useCarryAccess(deviceId);
  const token = carry.data;
  return (
    <Stack gap="sm">
      <Button
        variant="default"
        w="fit-content"
        leftSection={<IconDeviceMobileUp size={16} aria-hidden="true" />}
        loading={carry.isPending}
        onClick={() => carry.mutate()}
      >
        {token ? 'Make a new code' : `Bring my access to ${lockName}`}
      </Button>
      {carry.error && <QueryError title="Could not prepare your access" error={carry.error} />}
      {token &&
        (token.qrCode ? (
          <Stack gap={6} align="flex-start">
            {/* A dense code: as large as the screen allows, so a reader resolves every module. */}
            <Paper withBorder radius="lg" p="sm" bg="white" w="100%" maw={440}>
              <Image src={token.qrCode} alt={`Your access for ${lockName}, to show at its reader`} w="100%" />
            </Paper>
            <Text size="sm" role="status">
              Show this at the lock&apos;s reader before {formatTime(token.expiresAt)}. It carries{' '}
              {token.entries} of your credentials.
            </Text>
          </Stack>
        ) : (
          <Text size="sm" role="status">
            Your access is too large for one code; ask your portal admin to bring the lock back online.
          </Text>
        ))}
    </Stack>
  );
}
