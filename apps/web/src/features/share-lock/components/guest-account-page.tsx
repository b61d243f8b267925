import { accountTokenSchema, PASSWORD_MIN_LENGTH } from '@latchkey/shared';
import { Alert, Button, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '@/components/auth-card';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { errorMessage, sentence } from '@/lib/errors';
import { startSession } from '@/lib/session';
import { useClaimStayAccount } from '../api/public';

const DAMAGED = 'This link is incomplete or damaged. Open it again from the mail.';

/** A link that cannot make the account (damaged, used, replaced, expired, or the address has one). */
function CannotUse({ message }: { message: string }) {
  return (
    <AuthCard title="This link can’t be used" description="The link in the mail works once, for 24 hours.">
      <Alert color="red" variant="light" icon={<IconLinkOff aria-hidden="true" />} role="alert">
        {message} To ask for a new one, open your stay’s page and choose “Keep this stay in an account” again.
      </Alert>
    </AuthCard>
  );
}

/**
 * `/s/account?token=` (no sign-in): the link mailed to a stay's address when its guest asked to
 * keep the stay in an account. Only that mailbox got it, so here its owner chooses their own
 * password: the account is made (address confirmed), keeps the stay, and they are signed in.
 */
export function GuestAccountPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const claim = useClaimStayAccount();
  const token = accountTokenSchema.safeParse(params.get('token') ?? '');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [linkError, setLinkError] = useState<string | null>(null);

  if (!token.success) return <CannotUse message={DAMAGED} />;
  if (linkError) return <CannotUse message={linkError} />;

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    if (password.length < PASSWORD_MIN_LENGTH) {
      setFieldError(`Use at least ${PASSWORD_MIN_LENGTH} characters`);
      return;
    }
    if (confirm !== password) {
      setFieldError('The two passwords differ');
      return;
    }
    claim.mutate(
      { token: token.data, name, password },
      {
        onSuccess: async ({ token: session }) => {
          startSession(session);
          await navigate(paths.auth.landing.href(), { replace: true });
        },
        onError: (error) => {
          if (!isApiError(error)) return;
          const passwordProblem = error.details?.find((d) => d.path === 'body.password');
          if (passwordProblem) setFieldError(sentence(`Password ${passwordProblem.message}`));
          else if (error.status === 400 || error.status === 409) setLinkError(sentence(error.message));
        },
      },
    );
  };

  const otherError =
    claim.error && !(isApiError(claim.error) && [400, 409].includes(claim.error.status))
      ? errorMessage(claim.error)
      : null;
  return (
    <AuthCard
      title="Keep your stay in an account"
      description="Choose your password. Your address is confirmed by this link, and the stay is kept in your new account."
    >
      <form onSubmit={submit} noValidate aria-label="Choose your password">
        <Stack gap="md">
          {otherError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {otherError}
            </Alert>
          )}
          <TextInput
            label="Your name"
            description="Left empty, your account takes the name your stay was booked under."
            value={name}
            maxLength={80}
            onChange={(event) => setName(event.currentTarget.value)}
            autoComplete="name"
          />
          <PasswordInput
            label="Password"
            description={`At least ${PASSWORD_MIN_LENGTH} characters. Common passwords are refused.`}
            required
            value={password}
            error={fieldError}
            onChange={(event) => setPassword(event.currentTarget.value)}
            autoComplete="new-password"
            autoFocus
          />
          <PasswordInput
            label="Confirm password"
            required
            value={confirm}
            onChange={(event) => setConfirm(event.currentTarget.value)}
            autoComplete="new-password"
          />
          <Button type="submit" fullWidth size="md" loading={claim.isPending}>
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
