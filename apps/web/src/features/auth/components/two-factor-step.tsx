import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { AuthCard } from '@/components/auth-card';
import { useFormMutation } from '@/lib/forms';
import { useTwoFactorCode } from '../api/login';

type Mode = 'app' | 'recovery';

const LABEL: Record<Mode, string> = { app: '6-digit code', recovery: 'Recovery code' };
const APP_CODE = /^\d{6}$/;
const RECOVERY_CODE = /^[a-z2-7]{5}-[a-z2-7]{5}$/i;

function validateCode(mode: Mode, code: string): string | null {
  if (mode === 'app') return APP_CODE.test(code) ? null : 'Enter the 6 digits your app shows';
  return RECOVERY_CODE.test(code) ? null : 'A recovery code looks like abcde-fghij';
}

interface TwoFactorStepProps {
  preAuthToken: string;
  /** The session token, once the code was accepted. */
  onSignedIn: (token: string) => void | Promise<void>;
  /** Back to email and password. */
  onStartAgain: () => void;
}

/** The second step of signing in when two-factor sign-in is on: a code from the app, or a recovery code. */
export function TwoFactorStep({ preAuthToken, onSignedIn, onStartAgain }: TwoFactorStepProps) {
  const [mode, setMode] = useState<Mode>('app');
  const [formError, setFormError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);
  const submitCode = useTwoFactorCode();

  const form = useForm<{ code: string }>({ mode: 'controlled', initialValues: { code: '' } });

  const switchMode = () => {
    setMode((current) => (current === 'app' ? 'recovery' : 'app'));
    form.setValues({ code: '' });
    form.clearErrors();
    setFormError(null);
  };

  const { run: sendCode } = useFormMutation(form, {
    run: async ({ code }) => {
      setFormError(null);
      const { token } = await submitCode.mutateAsync({ preAuthToken, code });
      await onSignedIn(token);
    },
    labels: { code: 'That code' },
    onStatus: {
      400: () => form.setFieldError('code', 'That code is not valid (or was already used)'),
      401: () => {
        setExpired(true);
        setFormError('This sign-in took too long. Start again with your email and password.');
      },
    },
    otherwise: (message) => setFormError(message),
  });

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const code = form.getValues().code.trim();
    const invalid = validateCode(mode, code);
    if (invalid) {
      form.setFieldError('code', invalid);
      return;
    }
    await sendCode({ code });
  };

  return (
    <AuthCard
      title="Two-factor sign-in"
      description={
        mode === 'app'
          ? 'Enter the code from your authenticator app.'
          : 'Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each works once.'
      }
      footer={
        <Anchor component="button" type="button" onClick={onStartAgain} fw={600}>
          Start again
        </Anchor>
      }
    >
      <form onSubmit={(event) => void submit(event)} noValidate aria-label="Two-factor sign-in">
        <Stack gap="md">
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {formError}
            </Alert>
          )}
          {mode === 'app' ? (
            <TextInput
              key="app"
              label={LABEL.app}
              description="The app shows a new one every 30 seconds."
              inputMode="numeric"
              autoComplete="one-time-code"
              autoFocus
              required
              placeholder="123456"
              styles={{ input: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums', fontSize: 20 } }}
              {...form.getInputProps('code')}
              onChange={(event) =>
                form.setFieldValue('code', event.currentTarget.value.replace(/\D/g, '').slice(0, 6))
              }
            />
          ) : (
            <TextInput
              key="recovery"
              label={LABEL.recovery}
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              required
              maxLength={11}
              placeholder="abcde-fghij"
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 18 } }}
              {...form.getInputProps('code')}
            />
          )}
          <Button type="submit" fullWidth size="md" loading={submitCode.isPending} disabled={expired}>
            Verify and sign in
          </Button>
          <Text ta="center" size="sm">
            <Anchor component="button" type="button" onClick={switchMode}>
              {mode === 'app' ? 'Use a recovery code' : 'Use the code from your app'}
            </Anchor>
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
