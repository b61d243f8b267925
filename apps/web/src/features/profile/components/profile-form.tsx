import { profileUpdateSchema, type Session } from '@latchkey/shared';
import { Button, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useUpdateProfile } from '../api/update-profile';

interface ProfileValues {
  firstName: string;
  lastName: string;
}

const LABELS: Record<keyof ProfileValues, string> = { firstName: 'First name', lastName: 'Last name' };

/** The person's name (POST auth/profile); the email has its own section. */
export function ProfileForm({ user }: { user: Session['user'] }) {
  const update = useUpdateProfile();
  const form = useForm<ProfileValues>({
    mode: 'controlled',
    initialValues: { firstName: user.firstName, lastName: user.lastName },
    validate: formResolver(profileUpdateSchema, LABELS),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const saved = await update.mutateAsync(values);
      form.resetDirty({ firstName: saved.firstName, lastName: saved.lastName });
      notifications.show({ color: 'teal', title: 'Profile saved', message: 'Your name has been updated.' });
    },
    labels: LABELS,
    otherwise: 'Could not save your profile',
  });

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="profile-details"
    >
      <Title order={2} fz="lg" id="profile-details" mb="md">
        Your details
      </Title>
      <form onSubmit={submit} noValidate aria-label="Your details">
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              label={LABELS.firstName}
              autoComplete="given-name"
              {...form.getInputProps('firstName')}
            />
            <TextInput
              label={LABELS.lastName}
              autoComplete="family-name"
              {...form.getInputProps('lastName')}
            />
          </SimpleGrid>
          <Group justify="space-between" gap="sm">
            <Text size="xs" c="dimmed">
              {form.isDirty() ? 'You have unsaved changes.' : ' '}
            </Text>
            <Button type="submit" loading={update.isPending} disabled={!form.isDirty()}>
              Save details
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
