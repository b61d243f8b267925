import {
  accountTokenSchema,
  PASSWORD_MIN_LENGTH,
  passwordResetSchema,
  type Invitation,
} from '@latchkey/shared';
import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Group,
  Loader,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCircleX, IconLinkOff } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '@/components/auth-card';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { isSignedIn } from '@/lib/auth-token';
import { sentence } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { formResolver, useFormMutation } from '@/lib/forms';
import { signInPath } from '@/lib/safe-redirect';
import { startSession } from '@/lib/session';
import { useAnswerInvitation } from '../api/answer-invitation';
import { useInvitation } from '../api/get-invitation';
import { InvitationDetails, roleWithArticle } from './invitation-details';

interface AcceptValues {
  firstName: string;
  lastName: string;
  password: string;
  confirmPassword: string;
}

const LABELS: Record<keyof AcceptValues, string> = {
  firstName: 'First name',
  lastName: 'Last name',
  password: 'Password',
  confirmPassword: 'Confirm password',
};

const validatePassword = formResolver<AcceptValues>(
  passwordResetSchema.pick({ password: true }),
  LABELS,
  (v) => ({
    password: v.password,
  }),
);

function signInLink(label = 'Sign in') {
  return (
    <Anchor component={Link} to={paths.auth.login.href()} fw={600}>
      {label}
    </Anchor>
  );
}

function NotUsable({ title, message }: { title: string; message: string }) {
  return (
    <AuthCard
      title={title}
      description="Ask the person who invited you to send a new invitation."
      footer={signInLink()}
    >
      <Alert color="red" variant="light" icon={<IconLinkOff aria-hidden="true" />} role="alert">
        {message}
      </Alert>
    </AuthCard>
  );
}

function Declined({ portalName }: { portalName: string }) {
  return (
    <AuthCard
      title="Invitation declined"
      description={`You will not join ${portalName}.`}
      footer={signInLink('Go to sign in')}
    >
      <Stack gap="md" align="center" ta="center" role="status">
        <ThemeIcon size={56} radius="xl" color="gray" variant="light" aria-hidden="true">
          <IconCircleX size={32} />
        </ThemeIcon>
        <Text size="sm">We have let them know. If it was a mistake, ask them to invite you again.</Text>
      </Stack>
    </AuthCard>
  );
}

function InvitationAnswerForm({ token, invitation }: { token: string; invitation: Invitation }) {
  const navigate = useNavigate();
  const answer = useAnswerInvitation();
  const [declining, setDeclining] = useState(false);
  const [declined, setDeclined] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const { needsPassword, portal } = invitation;
  const [openedAt] = useState(() => Date.now());
  const expired = new Date(invitation.expiresAt).getTime() < openedAt;

  const form = useForm<AcceptValues>({
    mode: 'uncontrolled',
    initialValues: {
      firstName: invitation.firstName,
      lastName: invitation.lastName,
      password: '',
      confirmPassword: '',
    },
    validate: (values) => {
      if (!needsPassword) return {};
      const errors: Record<string, unknown> = validatePassword(values);
      if (values.confirmPassword !== values.password) errors.confirmPassword = 'The two passwords differ';
      return errors as Record<string, string>;
    },
  });

  const { submit: accept } = useFormMutation(form, {
    run: async (values) => {
      setFormError(null);
      const answered = await answer.mutateAsync(
        needsPassword
          ? {
              token,
              accept: true,
              password: values.password,
              firstName: values.firstName.trim(),
              lastName: values.lastName.trim(),
            }
          : { token, accept: true },
      );
      if (answered.session) {
        startSession(answered.session.token);
        notifications.show({
          color: 'teal',
          title: `Welcome to ${portal.name}`,
          message: 'Your account is ready and you are signed in.',
        });
        await navigate(paths.auth.landing.href(), { replace: true });
        return;
      }
      const notice = `You joined ${portal.name}. Sign in with your Latchkey password to open it.`;
      await navigate(signInPath(paths.space.href(answered.portalId)), { replace: true, state: { notice } });
    },
    labels: LABELS,
    otherwise: (message) => setFormError(message),
  });

  const { run: sendDecline } = useFormMutation(form, {
    run: async () => {
      setFormError(null);
      try {
        await answer.mutateAsync({ token, accept: false });
      } finally {
        setDeclining(false);
      }
      setDeclined(true);
    },
    labels: LABELS,
    otherwise: (message) => setFormError(message),
  });
  const decline = () => sendDecline(form.getValues());

  if (declined) return <Declined portalName={portal.name} />;

  const rows = [
    { label: 'Invited by', value: invitation.invitedBy ?? 'An admin of the portal' },
    { label: 'For', value: invitation.email },
    { label: expired ? 'Expired' : 'Open until', value: formatDate(invitation.expiresAt) },
  ];

  return (
    <AuthCard
      title={`Join ${portal.name}`}
      description={`${invitation.invitedBy ?? 'An admin'} invited you to join as ${roleWithArticle(invitation.role)}.`}
      footer={
        needsPassword ? undefined : (
          <>
            Not {invitation.email}? {signInLink('Sign in to your own account')}
          </>
        )
      }
    >
      <form onSubmit={accept} noValidate aria-label="Answer the invitation">
        <Stack gap="md">
          <InvitationDetails portalName={portal.name} role={invitation.role} rows={rows} />
          <Divider />
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {formError}
            </Alert>
          )}
          {expired ? (
            <Alert color="yellow" variant="light" role="alert">
              This invitation has expired. Ask {invitation.invitedBy ?? 'the person who invited you'} to send
              it again.
            </Alert>
          ) : needsPassword ? (
            <>
              <Text size="sm">
                Create your Latchkey account to accept: you sign in with {invitation.email}.
              </Text>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
                <TextInput
                  label={LABELS.firstName}
                  autoComplete="given-name"
                  maxLength={80}
                  key={form.key('firstName')}
                  {...form.getInputProps('firstName')}
                />
                <TextInput
                  label={LABELS.lastName}
                  autoComplete="family-name"
                  maxLength={80}
                  key={form.key('lastName')}
                  {...form.getInputProps('lastName')}
                />
              </SimpleGrid>
              <PasswordInput
                label={LABELS.password}
                description={`At least ${PASSWORD_MIN_LENGTH} characters. Common passwords are refused.`}
                autoComplete="new-password"
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
            </>
          ) : (
            <Text size="sm">
              You already have a Latchkey account: after accepting, sign in with your password.
            </Text>
          )}
          <Group justify="space-between" gap="sm" wrap="wrap-reverse">
            <Button
              variant="subtle"
              color="red"
              onClick={() => setDeclining(true)}
              disabled={answer.isPending}
            >
              Decline
            </Button>
            {!expired && (
              <Button type="submit" loading={answer.isPending && !declining}>
                {needsPassword ? 'Accept and create account' : 'Accept invitation'}
              </Button>
            )}
          </Group>
        </Stack>
      </form>
      <ConfirmDialog
        opened={declining}
        onClose={() => setDeclining(false)}
        title="Decline the invitation?"
        confirmLabel="Decline invitation"
        onConfirm={() => void decline()}
        loading={answer.isPending}
      >
        {`You will not join ${portal.name}. To join later, someone there has to invite you again.`}
      </ConfirmDialog>
    </AuthCard>
  );
}

/** `/invite?token=`: the link in an invitation mail. Accept (choosing a password if needed) or decline. */
export function InvitationPage() {
  const [params] = useSearchParams();
  const parsed = accountTokenSchema.safeParse(params.get('token') ?? '');
  const token = parsed.success ? parsed.data : '';
  const invitation = useInvitation(token);

  if (!parsed.success) {
    return (
      <NotUsable
        title="This invitation link is not valid"
        message="The link is incomplete or damaged. Open it again from the mail."
      />
    );
  }
  if (invitation.isPending) {
    return (
      <Center py="xl">
        <Stack align="center" gap="sm">
          <Loader aria-hidden="true" />
          <Text role="status">Opening your invitation…</Text>
        </Stack>
      </Center>
    );
  }
  if (invitation.error) {
    if (isApiError(invitation.error) && invitation.error.status === 400) {
      return <NotUsable title="This invitation can’t be used" message={sentence(invitation.error.message)} />;
    }
    return (
      <QueryError
        title="Could not open the invitation"
        error={invitation.error}
        onRetry={() => void invitation.refetch()}
      />
    );
  }
  const data = invitation.data;
  if (data.status === 'accepted') {
    const next = paths.space.href(data.portal._id);
    return (
      <AuthCard title="Invitation accepted" description={`You are already in ${data.portal.name}.`}>
        <Stack gap="md">
          <InvitationDetails portalName={data.portal.name} role={data.role} />
          <Button component={Link} to={isSignedIn() ? next : signInPath(next)} fullWidth>
            {isSignedIn() ? `Open ${data.portal.name}` : 'Sign in to open it'}
          </Button>
        </Stack>
      </AuthCard>
    );
  }
  return <InvitationAnswerForm token={token} invitation={data} />;
}
