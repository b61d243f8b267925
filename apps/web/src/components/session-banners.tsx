import type { Session } from '@latchkey/shared';
import { Alert, Anchor, Box, Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconHeadset, IconMailExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { endSupportSession } from '@/features/auth/api/end-support-session';
import { PaymentBanner } from './payment-banner';

const DISMISSED_KEY = 'latchkey.verifyBannerDismissed';

function dismissedFor(userId: string): boolean {
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY) === userId;
  } catch {
    return false;
  }
}

function dismissFor(userId: string): void {
  try {
    window.sessionStorage.setItem(DISMISSED_KEY, userId);
  } catch {
    // Without sessionStorage the banner stays dismissed until the page reloads.
  }
}

/**
 * "Confirm your email address", while GET auth says it is not confirmed. Dismissed, it stays
 * away for this browser tab's session. Unconfirmed people may use the app; they only cannot
 * invite people or accept portal invitations until they confirm.
 */
export function UnverifiedEmailBanner({ session }: { session: Session }) {
  const { user } = session;
  const [dismissed, setDismissed] = useState(() => dismissedFor(user._id));
  if (user.emailVerified || dismissed) return null;
  return (
    <Alert
      color="yellow"
      variant="light"
      radius="lg"
      icon={<IconMailExclamation aria-hidden="true" />}
      title="Confirm your email address"
      withCloseButton
      closeButtonLabel="Dismiss until next time"
      onClose={() => {
        dismissFor(user._id);
        setDismissed(true);
      }}
      mb="lg"
    >
      <Text size="sm">
        We sent a link to <strong style={{ overflowWrap: 'anywhere' }}>{user.email}</strong>. Until you follow
        it, you cannot invite people or accept invitations to other portals.{' '}
        <Anchor component={Link} to={paths.mustActivate.href()} size="sm" fw={600}>
          Confirm it now
        </Anchor>
      </Text>
    </Alert>
  );
}

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

/** The account banners of the signed-in shells (/app and /user), and admins' payment banner. */
export function SessionBanners({ session }: { session: Session }) {
  return (
    <>
      <SupportSessionBanner session={session} />
      <UnverifiedEmailBanner session={session} />
      <PaymentBanner session={session} />
    </>
  );
}
