import type { Session } from '@latchkey/shared';
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconLogout } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useSignOutEverywhere } from '../api/sign-out-everywhere';

/** "Sign out everywhere": every device, this one included (POST auth/logout). */
export function SessionsSection({ session }: { session: Session }) {
  const navigate = useNavigate();
  const signOut = useSignOutEverywhere();
  const [confirming, setConfirming] = useState(false);
  const support = session.impersonatedBy !== null;

  // Awaited rather than per-call callbacks: ending the session unmounts this screen (the layout
  // has no session to show any more) before the mutation settles, and the way out must still happen.
  const confirm = async () => {
    try {
      await signOut.mutateAsync();
    } catch (error) {
      setConfirming(false);
      notifications.show({ color: 'red', title: 'Could not sign out', message: errorMessage(error) });
      return;
    }
    notifications.show({
      color: 'teal',
      title: 'Signed out everywhere',
      message: 'Every device, this one included, has to sign in again.',
    });
    await navigate(paths.root.href(), { replace: true });
  };

  return (
    <SectionCard
      title="Sessions"
      description="Lost a phone, or signed in on a shared computer? End every session at once."
    >
      {support ? (
        <Text size="sm" c="dimmed">
          Not available in a support session: ending it does not sign the person out.
        </Text>
      ) : (
        <Group>
          <Button
            variant="default"
            color="red"
            leftSection={<IconLogout size={16} aria-hidden="true" />}
            onClick={() => setConfirming(true)}
          >
            Sign out everywhere
          </Button>
        </Group>
      )}
      <ConfirmDialog
        opened={confirming}
        onClose={() => setConfirming(false)}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        onConfirm={() => void confirm()}
        loading={signOut.isPending}
      >
        Every device where you are signed in, this one included, will have to sign in again.
      </ConfirmDialog>
    </SectionCard>
  );
}
