import type { PortalMember } from '@latchkey/shared';
import { Button, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconHeadset } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { errorMessage } from '@/lib/errors';
import { displayName, useSession } from '@/lib/session';
import { startSupportSession } from '@/features/auth/api/start-support-session';

/**
 * "Act as this person" (platform staff only): a 30-minute support session as them, written to the
 * change log of their portals. The banner it brings ends it and comes back to this page.
 */
export function ActAsPersonButton({ member }: { member: PortalMember }) {
  const { data: session } = useSession();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [starting, setStarting] = useState(false);
  if (session?.user.platformRole !== 'superAdmin' || session.user._id === member._id) return null;
  if (session.impersonatedBy) return null;
  const name = displayName(member);

  const start = async () => {
    setStarting(true);
    try {
      const next = await startSupportSession(member._id, `${pathname}${search}`);
      notifications.show({
        color: 'orange',
        title: 'Support session started',
        message: `You are acting as ${name}.`,
      });
      await navigate(next, { replace: true });
    } catch (error) {
      setStarting(false);
      setConfirming(false);
      notifications.show({
        color: 'red',
        title: 'Could not act as this person',
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
        Act as this person
      </Button>
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Act as ${name}?`}
        confirmLabel="Start support session"
        color="orange"
        onConfirm={() => void start()}
        loading={starting}
      >
        <Stack gap="xs">
          <Text size="sm">
            You will see Latchkey as {member.email} does, for up to 30 minutes, and can change what they can
            change.
          </Text>
          <Text size="sm">
            It is written to the change log of their portals. A banner lets you end it and come back here.
          </Text>
        </Stack>
      </ConfirmDialog>
    </>
  );
}
