import { createAccountSchema, PASSWORD_MIN_LENGTH, type CreateAccountInput } from '@latchkey/shared';
import { Alert, Anchor, Button, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '@/lib/api-client';
import { errorMessage, fieldErrorsFrom } from '@/lib/errors';
import { formResolver } from '@/lib/forms';
import { startSession } from '@/lib/session';
import { useCreateAccount } from '../api/create-account';
import { AuthCard } from '@/components/auth-card';

interface SignupValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  portalName: string;
}

const LABELS: Record<keyof SignupValues, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  password: 'Password',
  portalName: 'Portal name',
};

const EMAIL_TAKEN_MESSAGE = 'An account with this email already exists';

/** What the form sends: the portal name is optional, so an empty one is left out. */
function toPayload(values: SignupValues): CreateAccountInput {
  const portalName = values.portalName.trim();
  return {
    email: values.email,
    password: values.password,
    firstName: values.firstName,
    lastName: values.lastName,
    ...(portalName ? { portalName } : {}),
  };
}

/** `/signup`: a new person and the portal they own. */
export function SignupPage() {
  const navigate = useNavigate();
  const createAccount = useCreateAccount();
  const [formError, setFormError] = useState<string | null>(null);
  const [emailTaken, setEmailTaken] = useState(false);

  const form = useForm<SignupValues>({
    mode: 'uncontrolled',
    initialValues: { firstName: '', lastName: '', email: '', password: '', portalName: '' },
    validate: formResolver(createAccountSchema, LABELS, toPayload),
  });

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    setEmailTaken(false);
    try {
      const { token } = await createAccount.mutateAsync(toPayload(values));
      startSession(token);
      notifications.show({
        color: 'teal',
        title: 'Welcome to Latchkey',
        message: 'Your account and portal are ready.',
      });
      await navigate('/auth/landing', { replace: true });
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        form.setFieldError('email', EMAIL_TAKEN_MESSAGE);
        setEmailTaken(true);
        return;
      }
      const fieldErrors = isApiError(error) && error.status === 400 ? fieldErrorsFrom(error, LABELS) : {};
      if (Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
      else setFormError(errorMessage(error));
    }
  });

  return (
    <AuthCard
      title="Create your account"
      description="Set up your portal and start adding locks and people."
      footer={
        <>
          Already have an account?{' '}
          <Anchor component={Link} to="/" fw={600}>
            Sign in
          </Anchor>
        </>
      }
    >
      <form onSubmit={submit} noValidate aria-label="Create your account">
        <Stack gap="md">
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {formError}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              label={LABELS.firstName}
              autoComplete="given-name"
              key={form.key('firstName')}
              {...form.getInputProps('firstName')}
            />
            <TextInput
              label={LABELS.lastName}
              autoComplete="family-name"
              key={form.key('lastName')}
              {...form.getInputProps('lastName')}
            />
          </SimpleGrid>
          <TextInput
            label={LABELS.email}
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          {emailTaken && (
            <Alert color="blue" variant="light" role="status">
              <Anchor component={Link} to="/" size="sm">
                Sign in to that account instead
              </Anchor>
            </Alert>
          )}
          <PasswordInput
            label={LABELS.password}
            description={`At least ${PASSWORD_MIN_LENGTH} characters. Common passwords are refused.`}
            autoComplete="new-password"
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <TextInput
            label={LABELS.portalName}
            description="Usually your company or property name. You can change it later."
            placeholder="e.g. Harbor View Apartments"
            autoComplete="organization"
            key={form.key('portalName')}
            {...form.getInputProps('portalName')}
          />
          <Button type="submit" fullWidth size="md" loading={createAccount.isPending}>
            Create account
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
