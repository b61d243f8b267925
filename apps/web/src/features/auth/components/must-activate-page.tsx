import { Anchor, Button, Center, Group, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck, IconLogout, IconMailExclamation } from '@tabler/icons-react';
import { Link } from 'react-router';
import { AuthCard } from '@/components/auth-card';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { hasRequiredRole, homePathFor } from '@/lib/authorization';
import { useSession } from '@/lib/session';
import { ResendActivation } from './resend-activation';

/** `/must-activate` (signed in): the email address is not confirmed yet; send the mail again. */
export function MustActivatePage() {
  const { data: session, error, refetch } = useSession();
  if (!session) {
    return error ? (
      <QueryError title="Could not load your account" error={error} onRetry={() => void refetch()} />
    ) : (
      <Center py="xl">
        <Loader aria-label="Loading your account" />
      </Center>
    );
  }
  const { user } = session;
  const home = homePathFor(session);
  const settings = hasRequiredRole(session.roles, ['admin'])
    ? paths.app.settings.href()
    : paths.user.settings.href();

  if (user.emailVerified) {
    return (
      <AuthCard title="Your address is confirmed" description="There is nothing left to do here.">
        <Stack gap="md" align="center" ta="center" role="status">
          <ThemeIcon size={56} radius="xl" color="teal" variant="light" aria-hidden="true">
            <IconCircleCheck size={32} />
          </ThemeIcon>
          <Text style={{ overflowWrap: 'anywhere' }}>{user.email}</Text>
          <Button component={Link} to={home} fullWidth>
            Continue to Latchkey
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Confirm your email address"
      description="One last step to prove the address is yours."
      footer={
        <>
          Wrong address?{' '}
          <Anchor component={Link} to={settings} fw={600}>
            Change it in your settings
          </Anchor>
        </>
      }
    >
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon size={40} radius="xl" color="yellow" variant="light" aria-hidden="true">
            <IconMailExclamation size={22} />
          </ThemeIcon>
          <Text size="sm">
            We sent a link to <strong style={{ overflowWrap: 'anywhere' }}>{user.email}</strong>. Open it to
            confirm your address. Until then you can use Latchkey, but you cannot accept invitations to other
            portals.
          </Text>
        </Group>
        <ResendActivation email={user.email} />
        <Group justify="space-between" gap="sm" mt="xs">
          <Button component={Link} to={home} variant="subtle" px={0}>
            Continue to Latchkey
          </Button>
          <Button
            component={Link}
            to={paths.auth.logout.href()}
            variant="default"
            leftSection={<IconLogout size={16} aria-hidden="true" />}
          >
            Sign out
          </Button>
        </Group>
      </Stack>
    </AuthCard>
  );
}
