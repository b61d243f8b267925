import { Center, Loader, Stack } from '@mantine/core';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { formatDate } from '@/lib/format';
import { useSession } from '@/lib/session';
import { EmailSection } from './email-section';
import { PasswordForm } from './password-form';
import { PortalsSection } from './portals-section';
import { PortalToolsLinks } from './portal-tools-links';
import { ProfileForm } from './profile-form';
import { SessionsSection } from './sessions-section';
import { TwoFactorSection } from './two-factor-section';

/**
 * /app/settings, /app/profile and /user/settingsProfile: the signed-in person's own account:
 * name, email, password, two-factor sign-in, the portals they belong to, and sessions.
 */
export function SettingsPage() {
  const { data: session, error, refetch } = useSession();
  if (error && !session)
    return <QueryError title="Could not load your settings" error={error} onRetry={() => void refetch()} />;
  if (!session) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading your settings" />
      </Center>
    );
  }
  const { user } = session;
  return (
    <Stack gap="lg" maw={760}>
      <PageHeader
        title="Settings"
        description={`Your account · member since ${formatDate(user.createdAt)}`}
      />
      <ProfileForm key={`${user._id}:${user.firstName}:${user.lastName}`} user={user} />
      <EmailSection key={user.email} user={user} />
      <PasswordForm />
      <TwoFactorSection />
      <PortalsSection session={session} />
      <SessionsSection session={session} />
      <PortalToolsLinks session={session} />
    </Stack>
  );
}
