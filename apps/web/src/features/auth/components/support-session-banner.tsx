import type { Session } from '@latchkey/shared';
import { Box, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconHeadset } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '@/lib/errors';
import { endSupportSession } from '../api/end-support-session';

/**
 * While platform staff act as this person (a support session): who is acting and a way back to
 * the staff member's own account. It stays in view while the page scrolls.
 */
export function SupportSessionBanner({ session }: { session: Session }) {
  const navigate = useNavigate();
  const [ending, setEnding] = useState(false);
  if (!session.impersonatedBy) return null;

  const end = async () => {
    setEnding(true);
    try {
      const next = await endSupportSession();
      notifications.show({
        color: 'teal',
        title: 'Support session ended',
        message: 'You are yourself again.',
      });
      await navigate(next, { replace: true });
    } catch (error) {
      setEnding(false);
      notifications.show({
        color: 'red',
        title: 'Could not end the support session',
        message: errorMessage(error),
      });
    }
  };

  return (
    <Box
      component="section"
      aria-label="Support session"
      mb="lg"
      p="sm"
      style={{
        position: 'sticky',
        top: 'calc(var(--app-shell-header-offset, 60px) + 8px)',
        zIndex: 50,
        borderRadius: 'var(--mantine-radius-lg)',
        background: 'var(--mantine-color-orange-filled)',
        color: 'var(--mantine-color-white)',
        boxShadow: 'var(--mantine-shadow-md)',
      }}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Group gap="sm" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 260px' }}>
          <IconHeadset size={24} aria-hidden="true" style={{ flexShrink: 0 }} />
          <Text size="sm" fw={500} c="inherit" style={{ overflowWrap: 'anywhere' }}>
            You are acting as <strong>{session.user.email}</strong> (support session by{' '}
            {session.impersonatedBy.email})
          </Text>
        </Group>
        <Button variant="white" color="orange" size="xs" loading={ending} onClick={() => void end()}>
          End support session
        </Button>
      </Group>
    </Box>
  );
}
