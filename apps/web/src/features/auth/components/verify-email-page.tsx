import { accountTokenSchema } from '@latchkey/shared';
import { Alert, Button, Center, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCircleCheck, IconLinkOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useSearchParams } from 'react-router';
import { AuthCard } from '@/components/auth-card';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { isSignedIn } from '@/lib/auth-token';
import { sentence } from '@/lib/errors';
import { sessionQueryKey, useSession } from '@/lib/session';
import { useVerifyEmail } from '../api/email-verification';
import { ResendActivation } from './resend-activation';

function LinkNotValid({ message }: { message: string }) {
  const { data: session } = useSession();
  const email = session && !session.user.emailVerified ? session.user.email : undefined;
  return (
    <AuthCard title="This link is not valid" description="Confirmation links work once and only for a while.">
      <Stack gap="md">
        <Alert color="red" variant="light" icon={<IconLinkOff aria-hidden="true" />} role="alert">
          {message}
        </Alert>
        <Text size="sm">
          {email
            ? 'Ask for a new link: it goes to the address of your account.'
            : 'Ask for a new link: enter the address you signed up with.'}
        </Text>
        <ResendActivation email={email} label="Request a new link" />
      </Stack>
    </AuthCard>
  );
}

function Verifying({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const verify = useVerifyEmail(token);
  const verified = verify.data;

  useEffect(() => {
    // The session's emailVerified (and, after an email change, its address) changed.
    if (verified && isSignedIn()) void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
  }, [verified, queryClient]);

  if (verify.isPending) {
    return (
      <Center py="xl">
        <Stack align="center" gap="sm">
          <Loader aria-hidden="true" />
          <Text role="status">Confirming your email address…</Text>
        </Stack>
      </Center>
    );
  }
  if (verify.error) {
    if (isApiError(verify.error) && (verify.error.status === 400 || verify.error.status === 409)) {
      return <LinkNotValid message={sentence(verify.error.message)} />;
    }
    return (
      <QueryError
        title="Could not confirm your email address"
        error={verify.error}
        onRetry={() => void verify.refetch()}
      />
    );
  }
  const signedIn = isSignedIn();
  return (
    <AuthCard title="Email address confirmed" description="Thank you: your address is confirmed.">
      <Stack gap="md" align="center" ta="center" role="status">
        <ThemeIcon size={56} radius="xl" color="teal" variant="light" aria-hidden="true">
          <IconCircleCheck size={32} />
        </ThemeIcon>
        <Text>
          <strong style={{ overflowWrap: 'anywhere' }}>{verified?.email}</strong> is confirmed. You can now
          accept invitations to portals.
        </Text>
        <Button
          component={Link}
          to={signedIn ? paths.auth.landing.href() : paths.auth.login.href()}
          fullWidth
          size="md"
        >
          {signedIn ? 'Continue to Latchkey' : 'Sign in'}
        </Button>
      </Stack>
    </AuthCard>
  );
}

/** `/verify?token=`: the link in a confirmation mail (sign-up, or a change of address). */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = accountTokenSchema.safeParse(params.get('token') ?? '');
  if (!token.success) {
    return <LinkNotValid message="This link is incomplete or damaged. Open it again from the mail." />;
  }
  return <Verifying token={token.data} />;
}
