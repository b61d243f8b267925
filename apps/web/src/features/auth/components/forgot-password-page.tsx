import { emailParamsSchema } from '@latchkey/shared';
import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconMailForward } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { AuthCard } from '@/components/auth-card';
import { paths } from '@/config/paths';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useRequestPasswordReset } from '../api/password-reset';

const LABELS = { email: 'Email' };

const backToSignIn = (
  <Anchor component={Link} to={paths.auth.login.href()} fw={600}>
    Back to sign in
  </Anchor>
);

/** `/auth/forgot`: mails a reset link. The answer is the same whether or not the account exists. */
export function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<{ email: string }>({
    mode: 'uncontrolled',
    initialValues: { email: '' },
    validate: formResolver(emailParamsSchema, LABELS),
  });

  const { submit } = useFormMutation(form, {
    run: async ({ email }) => {
      setFormError(null);
      await request.mutateAsync(email);
      setSentTo(email.trim().toLowerCase());
    },
    labels: LABELS,
    otherwise: (message) => setFormError(message),
  });

  if (sentTo) {
    return (
      <AuthCard
        title="Check your inbox"
        description="The link to choose a new password is on its way."
        footer={backToSignIn}
      >
        <Stack gap="md" role="status">
          <Stack align="center" gap="xs">
            <IconMailForward
              size={40}
              stroke={1.5}
              color="var(--mantine-color-latchkey-6)"
              aria-hidden="true"
            />
          </Stack>
          <Text size="sm">
            If an account exists for <strong style={{ overflowWrap: 'anywhere' }}>{sentTo}</strong>, we have
            sent it a link to choose a new password. The link works once; a newer one replaces it.
          </Text>
          <Text size="sm" c="dimmed">
            Nothing after a few minutes? Look in your spam folder, or check the address.
          </Text>
          <Button variant="default" onClick={() => setSentTo(null)}>
            Use another address
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Forgot your password?"
      description="Enter the email you sign in with and we will send you a link to choose a new password."
      footer={backToSignIn}
    >
      <form onSubmit={submit} noValidate aria-label="Forgot your password">
        <Stack gap="md">
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {formError}
            </Alert>
          )}
          <TextInput
            label={LABELS.email}
            type="email"
            inputMode="email"
            autoComplete="email"
            autoFocus
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <Button type="submit" fullWidth size="md" loading={request.isPending}>
            Send the link
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
