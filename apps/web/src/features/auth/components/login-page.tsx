import { loginPayloadSchema } from '@latchkey/shared';
import { Alert, Anchor, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '@/lib/api-client';
import { errorMessage, fieldErrorsFrom } from '@/lib/errors';
import { formResolver } from '@/lib/forms';
import { landingPath, safeRedirectPath } from '@/lib/safe-redirect';
import { startSession } from '@/lib/session';
import { useLogin } from '../api/login';
import { AuthCard } from './auth-card';

const loginFormSchema = loginPayloadSchema.pick({ email: true, password: true });
const LABELS = { email: 'Email', password: 'Password' };

type LoginValues = { email: string; password: string };

function loginErrorMessage(error: unknown): string {
  if (isApiError(error) && error.status === 401) return 'That email and password don’t match an account.';
  return errorMessage(error);
}

/** `/` and `/auth/login`. */
export function LoginPage() {
  const [params] = useSearchParams();
  const target = safeRedirectPath(params.get('redirect'));
  const navigate = useNavigate();
  const loginMutation = useLogin();
  const [formError, setFormError] = useState<string | null>(null);

  const form = useForm<LoginValues>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: formResolver(loginFormSchema, LABELS),
  });

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const { token } = await loginMutation.mutateAsync({
        ...values,
        scope: target?.startsWith('/user') ? 'user' : 'app',
      });
      startSession(token);
      await navigate(landingPath(target), { replace: true });
    } catch (error) {
      const fieldErrors = isApiError(error) && error.status === 400 ? fieldErrorsFrom(error, LABELS) : {};
      if (Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
      else setFormError(loginErrorMessage(error));
    }
  });

  return (
    <AuthCard
      title="Sign in"
      description={
        target
          ? 'Sign in to continue where you left off.'
          : 'Welcome back. Sign in to manage your locks and people.'
      }
      footer={
        <>
          New to Latchkey?{' '}
          <Anchor component={Link} to="/signup" fw={600}>
            Create an account
          </Anchor>
        </>
      }
    >
      <form onSubmit={submit} noValidate aria-label="Sign in">
        <Stack gap="md">
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
          <PasswordInput
            label="Password"
            autoComplete="current-password"
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <Button type="submit" fullWidth size="md" loading={loginMutation.isPending}>
            Sign in
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
