import { accountTokenSchema, PASSWORD_MIN_LENGTH, passwordResetSchema } from '@latchkey/shared';
import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { AuthCard } from '@/components/auth-card';
import { paths } from '@/config/paths';
import { formResolver, useFormMutation } from '@/lib/forms';
import { startSession } from '@/lib/session';
import { useResetPassword, type ResetLink } from '../api/password-reset';

interface ResetValues {
  password: string;
  confirmPassword: string;
}

const LABELS: Record<keyof ResetValues, string> = {
  password: 'New password',
  confirmPassword: 'Confirm new password',
};

const validateSchema = formResolver<ResetValues>(
  passwordResetSchema.pick({ password: true }),
  LABELS,
  (values) => ({
    password: values.password,
  }),
);

function validate(values: ResetValues) {
  const errors: Record<string, unknown> = validateSchema(values);
  if (values.confirmPassword !== values.password) errors.confirmPassword = 'The two passwords differ';
  return errors as Record<string, string>;
}

const requestNewLink = (
  <Button component={Link} to={paths.auth.forgot.href()} variant="light">
    Request a new link
  </Button>
);

/** A reset link that cannot work (damaged, used, expired): why, and a way to get a new one. */
function InvalidLink({ message }: { message: string }) {
  return (
    <AuthCard
      title="This link can’t be used"
      description="Password links work once and only for a while."
      footer={
        <Anchor component={Link} to={paths.auth.login.href()} fw={600}>
          Back to sign in
        </Anchor>
      }
    >
      <Stack gap="md" align="flex-start">
        <Alert color="red" variant="light" icon={<IconLinkOff aria-hidden="true" />} role="alert" w="100%">
          {message}
        </Alert>
        {requestNewLink}
      </Stack>
    </AuthCard>
  );
}

/** Choose a new password for a reset link; success signs the person in and goes home. */
function ResetPasswordForm({ link }: { link: ResetLink }) {
  const navigate = useNavigate();
  const reset = useResetPassword();
  const [formError, setFormError] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);
  const form = useForm<ResetValues>({
    mode: 'uncontrolled',
    initialValues: { password: '', confirmPassword: '' },
    validate,
  });

  const { submit } = useFormMutation(form, {
    run: async ({ password }) => {
      setFormError(null);
      const { token } = await reset.mutateAsync({ link, password });
      startSession(token);
      notifications.show({
        color: 'teal',
        title: 'Password changed',
        message: 'You are signed in. Every other session has been signed out.',
      });
      await navigate(paths.auth.landing.href(), { replace: true });
    },
    labels: { password: LABELS.password },
    // Any other rule the answer breaks is the link's: it is incomplete, used or expired.
    onStatus: { 400: (message) => setLinkError(message) },
    otherwise: (message) => setFormError(message),
  });

  if (linkError) return <InvalidLink message={linkError} />;

  return (
    <AuthCard
      title="Choose a new password"
      description="Once it is saved you are signed in, and every other session is signed out."
      footer={
        <Anchor component={Link} to={paths.auth.login.href()} fw={600}>
          Back to sign in
        </Anchor>
      }
    >
      <form onSubmit={submit} noValidate aria-label="Choose a new password">
        <Stack gap="md">
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {formError}
            </Alert>
          )}
          <PasswordInput
            label={LABELS.password}
            description={`At least ${PASSWORD_MIN_LENGTH} characters. Common passwords are refused.`}
            autoComplete="new-password"
            autoFocus
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label={LABELS.confirmPassword}
            autoComplete="new-password"
            required
            key={form.key('confirmPassword')}
            {...form.getInputProps('confirmPassword')}
          />
          <Button type="submit" fullWidth size="md" loading={reset.isPending}>
            Save and sign in
          </Button>
          <Text size="xs" c="dimmed" ta="center">
            The link in your mail works once.
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}

const DAMAGED = 'This link is incomplete or damaged. Open it again from the mail, or ask for a new one.';

/** `/auth/reset?token=`: the link in the reset mail. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = accountTokenSchema.safeParse(params.get('token') ?? '');
  if (!token.success) return <InvalidLink message={DAMAGED} />;
  return <ResetPasswordForm link={{ kind: 'token', token: token.data }} />;
}

/** `/reset/:resetToken`: links of the older form, still in people's mailboxes. */
export function LegacyResetPage() {
  const { resetToken = '' } = useParams();
  const token = accountTokenSchema.safeParse(resetToken);
  if (!token.success) return <InvalidLink message={DAMAGED} />;
  return <ResetPasswordForm link={{ kind: 'legacy', resetToken: token.data }} />;
}
