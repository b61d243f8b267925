import { Alert, Anchor, Button, Center, Group, Loader, Stack, Text, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertCircle, IconCircleX, IconSearch } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { AuthCard } from '@/components/auth-card';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { api, isApiError } from '@/lib/api-client';
import { homePathFor } from '@/lib/authorization';
import { errorMessage, sentence } from '@/lib/errors';
import { switchPortal } from '@/features/portal/api/switch-portal';
import { ConfirmEmailFirst } from '@/components/confirm-email-first';
import { useSession } from '@/lib/session';
import { useAnswerPortalInvitation, usePortalInvitation } from '../api/portal-invitation';
import { InvitationDetails, roleWithArticle } from './invitation-details';

/** `/space/:portalId` (signed in): answer an invitation to a portal, or open a portal one belongs to. */
export function SpaceInvitationPage() {
  const { portalId = '' } = useParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: session } = useSession();
  const invitation = usePortalInvitation(portalId);
  const answer = useAnswerPortalInvitation();
  const [declining, setDeclining] = useState(false);
  const [declined, setDeclined] = useState(false);
  const [opening, setOpening] = useState(false);
  const [mustConfirm, setMustConfirm] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const home = session ? homePathFor(session) : paths.auth.landing.href();

  /** Acts in the portal from now on (the override), then lands where the person's role there belongs. */
  const openPortal = async (name: string) => {
    setOpening(true);
    try {
      await switchPortal(portalId);
      api.clearCache();
      await queryClient.invalidateQueries();
      notifications.show({
        color: 'teal',
        title: `Welcome to ${name}`,
        message: `You are now working in ${name}.`,
      });
      await navigate(paths.auth.landing.href(), { replace: true });
    } catch (error) {
      setOpening(false);
      setFormError(errorMessage(error));
    }
  };

  const respond = async (accept: boolean, name: string) => {
    setFormError(null);
    try {
      await answer.mutateAsync({ portalId, accept });
      if (accept) await openPortal(name);
      else {
        setDeclining(false);
        setDeclined(true);
      }
    } catch (error) {
      setDeclining(false);
      if (isApiError(error) && error.status === 403) setMustConfirm(true);
      else
        setFormError(
          isApiError(error) && error.status === 400 ? sentence(error.message) : errorMessage(error),
        );
    }
  };

  if (invitation.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the invitation" />
      </Center>
    );
  }
  if (invitation.error) {
    if (isApiError(invitation.error) && invitation.error.status === 404) {
      return (
        <AuthCard
          title="No invitation here"
          description="There is no open invitation to this portal for you."
        >
          <Stack gap="md" align="center" ta="center">
            <ThemeIcon size={56} radius="xl" color="gray" variant="light" aria-hidden="true">
              <IconSearch size={28} />
            </ThemeIcon>
            <Text size="sm">
              It may have been withdrawn, or it was sent to another address than{' '}
              <strong style={{ overflowWrap: 'anywhere' }}>{session?.user.email}</strong>.
            </Text>
            <Button component={Link} to={home} fullWidth>
              Go to my home
            </Button>
          </Stack>
        </AuthCard>
      );
    }
    return (
      <QueryError
        title="Could not load the invitation"
        error={invitation.error}
        onRetry={() => void invitation.refetch()}
      />
    );
  }

  const { portal, role, status } = invitation.data;

  if (declined) {
    return (
      <AuthCard title="Invitation declined" description={`You will not join ${portal.name}.`}>
        <Stack gap="md" align="center" ta="center" role="status">
          <ThemeIcon size={56} radius="xl" color="gray" variant="light" aria-hidden="true">
            <IconCircleX size={32} />
          </ThemeIcon>
          <Button component={Link} to={home} fullWidth>
            Go to my home
          </Button>
        </Stack>
      </AuthCard>
    );
  }

  if (status !== 'invited') {
    const suspended = status === 'suspended';
    return (
      <AuthCard
        title={suspended ? 'Your membership is suspended' : `You are a member of ${portal.name}`}
        description={
          suspended
            ? 'An admin of the portal has suspended you; ask them to let you back in.'
            : `You are ${roleWithArticle(role)} there.`
        }
      >
        <Stack gap="md">
          <InvitationDetails portalName={portal.name} role={role} />
          {formError && (
            <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
              {formError}
            </Alert>
          )}
          {suspended ? (
            <Button component={Link} to={home} fullWidth>
              Go to my home
            </Button>
          ) : (
            <Button fullWidth loading={opening} onClick={() => void openPortal(portal.name)}>
              Open {portal.name}
            </Button>
          )}
        </Stack>
      </AuthCard>
    );
  }

  const unconfirmed = mustConfirm || session?.user.emailVerified === false;
  return (
    <AuthCard
      title={`You are invited to ${portal.name}`}
      description={`Join as ${roleWithArticle(role)}, or decline.`}
      footer={
        <Anchor component={Link} to={home}>
          Decide later
        </Anchor>
      }
    >
      <Stack gap="md">
        <InvitationDetails
          portalName={portal.name}
          role={role}
          rows={session ? [{ label: 'For', value: session.user.email }] : []}
        />
        {unconfirmed && (
          <ConfirmEmailFirst>
            Invitations can be accepted once your email address is confirmed.
          </ConfirmEmailFirst>
        )}
        {formError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
            {formError}
          </Alert>
        )}
        <Group justify="space-between" gap="sm" wrap="wrap-reverse">
          <Button
            variant="subtle"
            color="red"
            onClick={() => setDeclining(true)}
            disabled={answer.isPending || opening}
          >
            Decline
          </Button>
          <Button
            loading={(answer.isPending && !declining) || opening}
            onClick={() => void respond(true, portal.name)}
          >
            Accept invitation
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={declining}
        onClose={() => setDeclining(false)}
        title="Decline the invitation?"
        confirmLabel="Decline invitation"
        onConfirm={() => void respond(false, portal.name)}
        loading={answer.isPending}
      >
        {`You will not join ${portal.name}. To join later, someone there has to invite you again.`}
      </ConfirmDialog>
    </AuthCard>
  );
}
