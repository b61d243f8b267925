import { loginPayloadSchema } from '@latchkey/shared';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { formResolver, useFormMutation } from '@/lib/forms';
import { landingPath, safeRedirectPath } from '@/lib/safe-redirect';
import { startSession } from '@/lib/session';
import { getSystemType } from '@/lib/system-type';
import { isTwoFactorChallenge, useLogin } from '../api/login';
import { TwoFactorStep } from './two-factor-step';
import { AuthCard } from '@/components/auth-card';

const loginFormSchema = loginPayloadSchema.pick({ email: true, password: true });
const LABELS = { email: 'Email', password: 'Password' };

type LoginValues = { email: string; password: string };

function loginErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status === 401) return 'That email and password don’t match an account.';
  if (isApiError(error) && error.status === 403 && getSystemType() === 'admin')
    return 'This address is for platform staff only. Sign in to your portal at its usual address instead.';
  return errorMessage(error);
}

/** A message another screen leaves for the sign-in page (router state), e.g. after accepting an invitation. */
export interface LoginNotice {
  notice?: string;
}

function noticeFrom(state: unknown): string | null {
  const notice = (state as LoginNotice | null)?.notice;
  return typeof notice === 'string' && notice ? notice : null;
}

/** `/` and `/auth/login`: email and password, then a code when two-factor sign-in is on. */
export function LoginPage() {
  const [params] = useSearchParams();
  const target = safeRedirectPath(params.get('redirect'));
  const notice = noticeFrom(useLocation().state);
  const navigate = useNavigate();
  const loginMutation = useLogin();
  const [formError, setFormError] = useState<string | null>(null);
  const [preAuthToken, setPreAuthToken] = useState<string | null>(null);
  // The admin host signs in platform staff only (the server refuses anyone else there).
  const staffHost = getSystemType() === 'admin';

  const signIn = async (token: string) => {
    startSession(token);
    await navigate(landingPath(target), { replace: true });
  };

  const form = useForm<LoginValues>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: formResolver(loginFormSchema, LABELS),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFormError(null);
      const answer = await loginMutation.mutateAsync({
        ...values,
        scope: target?.startsWith(paths.user.home.pattern) ? 'user' : 'app',
      });
      if (isTwoFactorChallenge(answer)) {
        setPreAuthToken(answer.preAuthToken);
        return;
      }
      await signIn(answer.token);
    },
    labels: LABELS,
    otherwise: (_message, error) => setFormError(loginErrorMessage(error)),
  });

  if (preAuthToken) {
    return (
      <TwoFactorStep
        preAuthToken={preAuthToken}
        onSignedIn={signIn}
        onStartAgain={() => {
          setPreAuthToken(null);
          form.setFieldValue('password', '');
        }}
      />
    );
  }

  return (
    <AuthCard
      title="Sign in"
      description={
        staffHost
          ? 'The platform console: for platform staff only.'
          : target
            ? 'Sign in to continue where you left off.'
            : 'Welcome back. Sign in to manage your locks and people.'
      }
      footer={
        staffHost ? undefined : (
          <>
            New to Latchkey?{' '}
            <Anchor component={Link} to={paths.signup.href()} fw={600}>
              Create an account
            </Anchor>
          </>
        )
      }
    >
      <form onSubmit={submit} noValidate aria-label="Sign in">
        <Stack gap="md">
          {notice && !formError && (
            <Alert color="teal" variant="light" icon={<IconCircleCheck aria-hidden="true" />} role="status">
              {notice}
            </Alert>
          )}
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {formError}
            </Alert>
          )}
          <TextInput
            label="Email"
            type="email"
            autoComplete="email"
            inputMode="email"
            autoFocus
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <Stack gap={6}>
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              key={form.key('password')}
              {...form.getInputProps('password')}
            />
            <Group justify="flex-end">
              <Anchor component={Link} to={paths.auth.forgot.href()} size="sm">
                Forgot password?
              </Anchor>
            </Group>
          </Stack>
          <Button type="submit" fullWidth size="md" loading={loginMutation.isPending}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
