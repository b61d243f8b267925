import { emailChangeSchema, type Session } from '@latchkey/shared';
import { Alert, Anchor, Badge, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useChangeEmail } from '../api/change-email';

interface EmailValues {
  newEmail: string;
  password: string;
}

const LABELS: Record<keyof EmailValues, string> = { newEmail: 'New email', password: 'Current password' };

/** The sign-in address: whether it is confirmed, and moving to another one (confirmed by a link sent there). */
export function EmailSection({ user }: { user: Session['user'] }) {
  const change = useChangeEmail();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<EmailValues>({
    mode: 'uncontrolled',
    initialValues: { newEmail: '', password: '' },
    validate: formResolver(emailChangeSchema, LABELS),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFormError(null);
      await change.mutateAsync(values);
      setSentTo(values.newEmail.trim().toLowerCase());
      setChanging(false);
      form.reset();
    },
    labels: LABELS,
    adjustErrors: (errors) =>
      errors.password ? { ...errors, password: 'Current password is not right' } : errors,
    onStatus: { 409: 'newEmail' },
    otherwise: (message) => setFormError(message),
  });

  return (
    <SectionCard title="Email" description="The address you sign in with and where Latchkey writes to you.">
      <Stack gap="md">
        <Group gap="sm" wrap="wrap">
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {user.email}
          </Text>
          <Badge variant="light" color={user.emailVerified ? 'teal' : 'yellow'}>
            {user.emailVerified ? 'Verified' : 'Not confirmed'}
          </Badge>
        </Group>
        {!user.emailVerified && (
          <Text size="sm" c="dimmed">
            Follow the link we sent to confirm it.{' '}
            <Anchor component={Link} to={paths.mustActivate.href()} size="sm">
              Send it again
            </Anchor>
          </Text>
        )}
        {sentTo && (
          <Alert
            color="teal"
            variant="light"
            icon={<IconMailForward aria-hidden="true" />}
            title="Check your new inbox"
            role="status"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setSentTo(null)}
          >
            We sent a link to <strong style={{ overflowWrap: 'anywhere' }}>{sentTo}</strong>. Your address
            changes when you follow it; until then you keep signing in with {user.email}.
          </Alert>
        )}
        {changing ? (
          <form onSubmit={submit} noValidate aria-label="Change email">
            <Stack gap="md">
              {formError && (
                <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
                  {formError}
                </Alert>
              )}
              <TextInput
                label={LABELS.newEmail}
                type="email"
                inputMode="email"
                autoComplete="email"
                required
                autoFocus
                key={form.key('newEmail')}
                {...form.getInputProps('newEmail')}
              />
              <PasswordInput
                label={LABELS.password}
                description="To make sure it is you."
                autoComplete="current-password"
                required
                key={form.key('password')}
                {...form.getInputProps('password')}
              />
              <Group justify="flex-end" gap="sm">
                <Button
                  variant="default"
                  onClick={() => {
                    setChanging(false);
                    setFormError(null);
                    form.reset();
                  }}
                  disabled={change.isPending}
                >
                  Cancel
                </Button>
                <Button type="submit" loading={change.isPending}>
                  Send confirmation link
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <Group>
            <Button variant="default" onClick={() => setChanging(true)}>
              Change address
            </Button>
          </Group>
        )}
      </Stack>
    </SectionCard>
  );
}
