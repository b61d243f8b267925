import { Center, Grid, Loader, Stack } from '@mantine/core';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { formatDate } from '@/lib/format';
import { useSession } from '@/lib/session';
import { PasswordForm } from './password-form';
import { ProfileForm } from './profile-form';

/** /app/profile and /user/settingsProfile: the signed-in person's own account. */
export function ProfilePage() {
  const { data: session, error, refetch } = useSession();
  if (error && !session)
    return <QueryError title="Could not load your profile" error={error} onRetry={() => void refetch()} />;
  if (!session) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading your profile" />
      </Center>
    );
  }
  const { user } = session;
  return (
    <Stack gap="lg">
      <PageHeader title="Profile" description={`Member since ${formatDate(user.createdAt)}`} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 6 }}>
          <ProfileForm key={`${user._id}:${user.firstName}:${user.lastName}`} user={user} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <PasswordForm />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
