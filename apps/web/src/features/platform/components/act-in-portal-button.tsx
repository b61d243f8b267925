import type { PlatformPortalDetail } from '@latchkey/shared';
import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconHeadset } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { startSupportSession } from '@/features/auth/api/start-support-session';
import { errorMessage } from '@/lib/errors';

/**
 * "Act in this portal": a support session as the portal's owner (POST user/{id}/session), after a
 * confirmation. The portal's admins see "Support is acting here" while it runs; the banner it
 * brings ends it and comes back to this page.
 */
export function ActInPortalButton({ portal }: { portal: PlatformPortalDetail }) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);

  const start = async () => {
    setStarting(true);
    try {
      const next = await startSupportSession(portal.owner._id, `${pathname}${search}`);
      notifications.show({
        color: 'orange',
        title: 'Support session started',
        message: `You are acting in ${portal.name} as ${portal.owner.email}.`,
      });
      await navigate(next, { replace: true });
    } catch (error) {
      setStarting(false);
      setConfirming(false);
      notifications.show({
        color: 'red',
        title: 'Could not act in this portal',
        message: errorMessage(error),
      });
    }
  };

  return (
    <>
      <Button
        variant="light"
        color="orange"
        leftSection={<IconHeadset size={18} aria-hidden="true" />}
        onClick={() => setConfirming(true)}
      >
        Act in this portal
      </Button>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Act in ${portal.name}?`}
        confirmLabel="Start support session"
        color="orange"
        onConfirm={() => void start()}
        loading={starting}
      >
        <Stack gap="xs">
          <Text size="sm">
            You will act as the portal&apos;s owner, {portal.owner.email}, for up to 30 minutes, and can
            change what they can change.
          </Text>
          <Text size="sm">
            It is written to the change log of their portals, and the portal&apos;s admins see that support is
            acting there until you end it.
          </Text>
        </Stack>
      </ConfirmDialog>
    </>
  );
}
