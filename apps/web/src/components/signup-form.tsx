import { PASSWORD_MIN_LENGTH, type TokenResponse } from '@latchkey/shared';
import { Alert, Anchor, Button, PasswordInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { AuthCard } from '@/components/auth-card';
import { formResolver, useFormMutation } from '@/lib/forms';
import { startSession } from '@/lib/session';

/** What every sign-up asks of the person. */
export interface PersonValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

const PERSON_LABELS: Record<keyof PersonValues, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  email: 'Email',
  password: 'Password',
};

const PERSON_INITIAL: PersonValues = { firstName: '', lastName: '', email: '', password: '' };

export interface SignupFormProps<Extra extends object, Payload> {
  /** The card's title (also the form's name unless `formLabel` says otherwise) and its line below. */
  title: string;
  description: string;
  formLabel?: string;
  submitLabel: string;
  /** Where the footer's "Sign in" goes. */
  signInTo: string;
  /** The fields this sign-up adds after the password: their first values, labels and inputs. */
  extraValues: Extra;
  extraLabels: Record<keyof Extra, string>;
  extraFields: (form: UseFormReturnType<PersonValues & Extra>) => ReactNode;
  /** Controlled when an extra field follows another as it changes (the reseller's VAT hint). */
  mode?: 'controlled' | 'uncontrolled';
  /** The shared schema of the call's body, and the body from the form's values. */
  schema: Parameters<typeof formResolver>[0];
  toPayload: (values: PersonValues & Extra) => Payload;
  /** The sign-up call (sealed; answers a token). */
  signup: { mutateAsync: (payload: Payload) => Promise<TokenResponse>; isPending: boolean };
  /** A 409: the email field's message, and whether to offer "Sign in to that account instead". */
  emailTakenMessage: string;
  offerSignIn?: boolean;
  /** Once signed in: the welcome notification and where to go. */
  welcome: { title: string; message: string };
  next: string;
}

/**
 * The one sign-up form (`/signup`, `/reseller-signup`): name, email and password, then what the
 * sign-up adds (a portal name, a reseller's company). The shared schema checks it as typed, the
 * server's 400 details land on the fields, a 409 on the email; success starts the session.
 */
export function SignupForm<Extra extends object, Payload>(props: SignupFormProps<Extra, Payload>) {
  const { title, description, formLabel = title, submitLabel, signInTo, extraLabels, signup } = props;
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const [emailTaken, setEmailTaken] = useState(false);
  const labels = { ...PERSON_LABELS, ...extraLabels } as Record<string, string>;

  const form = useForm<PersonValues & Extra>({
    mode: props.mode ?? 'uncontrolled',
    initialValues: { ...PERSON_INITIAL, ...props.extraValues },
    validate: formResolver(props.schema, labels, props.toPayload),
  });

  const { submit } = useFormMutation(form, {
    run: async (values) => {
      setFormError(null);
      setEmailTaken(false);
      const { token } = await signup.mutateAsync(props.toPayload(values));
      startSession(token);
      notifications.show({ color: 'teal', ...props.welcome });
      await navigate(props.next, { replace: true });
    },
    labels,
    onStatus: {
      409: () => {
        form.setFieldError('email', props.emailTakenMessage);
        setEmailTaken(true);
      },
    },
    otherwise: (message) => setFormError(message),
  });

  return (
    <AuthCard
      title={title}
      description={description}
      footer={
        <>
          Already have an account?{' '}
          <Anchor component={Link} to={signInTo} fw={600}>
            Sign in
          </Anchor>
        </>
      }
    >
      <form onSubmit={submit} noValidate aria-label={formLabel}>
        <Stack gap="md">
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {formError}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              label={PERSON_LABELS.firstName}
              autoComplete="given-name"
              key={form.key('firstName')}
              {...form.getInputProps('firstName')}
            />
            <TextInput
              label={PERSON_LABELS.lastName}
              autoComplete="family-name"
              key={form.key('lastName')}
              {...form.getInputProps('lastName')}
            />
          </SimpleGrid>
          <TextInput
            label={PERSON_LABELS.email}
            type="email"
            inputMode="email"
            autoComplete="email"
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          {emailTaken && props.offerSignIn && (
            <Alert color="blue" variant="light" role="status">
              <Anchor component={Link} to={signInTo} size="sm">
                Sign in to that account instead
              </Anchor>
            </Alert>
          )}
          <PasswordInput
            label={PERSON_LABELS.password}
            description={`At least ${PASSWORD_MIN_LENGTH} characters. Common passwords are refused.`}
            autoComplete="new-password"
            required
            key={form.key('password')}
            {...form.getInputProps('password')}
          />
          {props.extraFields(form)}
          <Button type="submit" fullWidth size="md" loading={signup.isPending}>
            {submitLabel}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
