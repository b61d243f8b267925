import type { Session } from '@latchkey/shared';
import { Alert, Anchor, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';

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
