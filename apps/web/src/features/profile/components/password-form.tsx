import { passwordChangeSchema, PASSWORD_MIN_LENGTH } from '@latchkey/shared';
import { Alert, Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useChangePassword } from '../api/change-password';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

const LABELS: Record<keyof PasswordValues, string> = {
  currentPassword: 'Current password',
  newPassword: 'New password',
  confirmPassword: 'Confirm new password',
};

const validateSchema = formResolver<PasswordValues>(passwordChangeSchema, LABELS, (values) => ({
  currentPassword: values.currentPassword,
  newPassword: values.newPassword,
}));

function validate(values: PasswordValues) {
  const errors: Record<string, unknown> = validateSchema(values);
  if (!errors.newPassword && values.newPassword === values.currentPassword && values.newPassword) {
    errors.newPassword = 'Choose a password different from the current one';
  }
  if (values.confirmPassword !== values.newPassword) errors.confirmPassword = 'The two new passwords differ';
  return errors as Record<string, string>;
}

/** Change the password (POST auth/password); the new token replaces the stored one. */
export function PasswordForm() {
  const change = useChangePassword();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<PasswordValues>({
    mode: 'uncontrolled',
    initialValues: { currentPassword: '', newPassword: '', confirmPassword: '' },
    validate,
  });

  const { submit } = useFormMutation(form, {
    run: async ({ currentPassword, newPassword }) => {
      setFormError(null);
      await change.mutateAsync({ currentPassword, newPassword });
      form.reset();
      notifications.show({
        color: 'teal',
        title: 'Password changed',
        message: 'Your other devices have been signed out.',
      });
    },
    labels: LABELS,
    adjustErrors: (errors) =>
      errors.currentPassword ? { ...errors, currentPassword: 'Current password is not right' } : errors,
    otherwise: (message) => setFormError(message),
  });

  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="profile-password"
    >
      <Stack gap={4} mb="md">
        <Title order={2} fz="lg" id="profile-password">
          Password
        </Title>
        <Text size="sm" c="dimmed">
          Changing it signs you out on every other device.
        </Text>
      </Stack>
      <form onSubmit={submit} noValidate aria-label="Change password">
        <Stack gap="md">
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {formError}
            </Alert>
          )}
          <PasswordInput
            label={LABELS.currentPassword}
            autoComplete="current-password"
            required
            key={form.key('currentPassword')}
            {...form.getInputProps('currentPassword')}
          />
          <PasswordInput
            label={LABELS.newPassword}
            description={`At least ${PASSWORD_MIN_LENGTH} characters. Common passwords are refused.`}
            autoComplete="new-password"
            required
            key={form.key('newPassword')}
            {...form.getInputProps('newPassword')}
          />
          <PasswordInput
            label={LABELS.confirmPassword}
            autoComplete="new-password"
            required
            key={form.key('confirmPassword')}
            {...form.getInputProps('confirmPassword')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              Change password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
