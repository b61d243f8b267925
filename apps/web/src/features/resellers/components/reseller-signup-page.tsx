import { PASSWORD_MIN_LENGTH, resellerSignupSchema, type ResellerSignup } from '@latchkey/shared';
import { Alert, Anchor, Button, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, redirect, useNavigate } from 'react-router';
import { AuthCard } from '@/components/auth-card';
import { isApiError } from '@/lib/api-client';
import { isSignedIn } from '@/lib/auth-token';
import { errorMessage, fieldErrorsFrom } from '@/lib/errors';
import { formResolver } from '@/lib/forms';
import { startSession } from '@/lib/session';
import { useResellerSignup } from '../api/reseller-signup';
import { COMPANY_LABELS, CompanyFields, companyInput, type CompanyValues } from './company-fields';

interface SignupValues extends CompanyValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

const LABELS: Record<keyof SignupValues, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  password: 'Password',
  ...COMPANY_LABELS,
};

function toPayload(values: SignupValues): ResellerSignup {
  return {
    email: values.email,
    password: values.password,
    firstName: values.firstName,
    lastName: values.lastName,
    ...companyInput(values),
  };
}

/** The route's loader: someone signed in opens a reseller account from the reseller area instead. */
export function resellerSignupLoader() {
  if (isSignedIn()) throw redirect('/app/reseller');
  return null;
}

/** /reseller-signup (public): a new person with a reseller account, signed in at once. */
export function ResellerSignupPage() {
  const navigate = useNavigate();
  const signup = useResellerSignup();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<SignupValues>({
    mode: 'controlled',
    initialValues: {
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      companyName: '',
      country: '',
      vatNumber: '',
    },
    validate: formResolver(resellerSignupSchema, LABELS, toPayload),
  });

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    try {
      const { token } = await signup.mutateAsync(toPayload(values));
      startSession(token);
      notifications.show({
        color: 'teal',
        title: 'Welcome, reseller',
        message: 'Your reseller account is ready: add your first customer portal.',
      });
      await navigate('/app/reseller', { replace: true });
    } catch (error) {
      if (isApiError(error) && error.status === 409) {
        form.setFieldError(
          'email',
          'An account with this email already exists: sign in and open a reseller account',
        );
        return;
      }
      const fieldErrors = isApiError(error) && error.status === 400 ? fieldErrorsFrom(error, LABELS) : {};
      if (Object.keys(fieldErrors).length > 0) form.setErrors(fieldErrors);
      else setFormError(errorMessage(error));
    }
  });

  return (
    <AuthCard
      title="Become a Latchkey reseller"
      description="Installers and integrators: set up portals for your customers, see what each is billed and what you earn."
      footer={
        <>
          Already have an account?{' '}
          <Anchor component={Link} to="/?redirect=%2Fapp%2Freseller" fw={600}>
            Sign in
          </Anchor>
        </>
      }
    >
      <form onSubmit={submit} noValidate aria-label="Become a reseller">
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
          <PasswordInput
            label={LABELS.password}
            description={`At least ${PASSWORD_MIN_LENGTH} characters. Common passwords are refused.`}
            autoComplete="new-password"
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          <CompanyFields form={form} />
          <Button type="submit" fullWidth size="md" loading={signup.isPending}>
            Create reseller account
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
