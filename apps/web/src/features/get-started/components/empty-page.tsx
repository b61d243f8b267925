import type { Membership } from '@latchkey/shared';
import { Alert, Anchor, Button, Group, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBuildingPlus, IconCalendarEvent, IconMailOpened } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ConfirmEmailFirst } from '@/components/confirm-email-first';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { api, isApiError } from '@/lib/api-client';
import { homePathFor } from '@/lib/authorization';
import { errorMessage } from '@/lib/errors';
import { useSession } from '@/lib/session';
import { useAnswerPortalInvitation } from '@/features/invitations/api/portal-invitation';
import { switchPortal } from '@/features/portal/api/switch-portal';
import { StartPortalModal } from '@/features/profile/components/start-portal-modal';
import { useRentalCenter } from '@/features/rental-center/api/rental-center';

/** One invitation to a portal: accept (then act there) or decline. */
function InvitationRow({ membership }: { membership: Membership }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const answer = useAnswerPortalInvitation();
  const [mustConfirm, setMustConfirm] = useState(false);
  const { portal } = membership;

  const respond = async (accept: boolean) => {
    try {
      await answer.mutateAsync({ portalId: portal._id, accept });
      if (accept) {
        // Act there from now on, then land where the person's role there belongs.
        await switchPortal(portal._id);
        notifications.show({
          color: 'teal',
          title: `Welcome to ${portal.name}`,
          message: `You are now working in ${portal.name}.`,
        });
      } else {
        notifications.show({
          color: 'teal',
          title: 'Invitation declined',
          message: `You will not join ${portal.name}.`,
        });
      }
      api.clearCache();
      await queryClient.invalidateQueries();
      if (accept) await navigate(paths.auth.landing.href(), { replace: true });
    } catch (error) {
      if (isApiError(error) && error.status === 403 && accept) setMustConfirm(true);
      else
        notifications.show({
          color: 'red',
          title: accept ? 'Could not accept the invitation' : 'Could not decline the invitation',
          message: errorMessage(error),
        });
    }
  };

  const busy = answer.isPending;
  return (
    <Stack
      component="li"
      gap="xs"
      py="sm"
      aria-label={portal.name}
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 180px' }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {portal.name}
          </Text>
          <Text size="sm" c="dimmed">
            As {membership.role === 'admin' ? 'an admin' : 'a member'}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button
            size="xs"
            variant="default"
            disabled={busy}
            onClick={() => void respond(false)}
            aria-label={`Decline the invitation to ${portal.name}`}
          >
            Decline
          </Button>
          <Button
            size="xs"
            loading={busy && answer.variables?.accept === true}
            disabled={busy}
            onClick={() => void respond(true)}
            aria-label={`Accept the invitation to ${portal.name}`}
          >
            Accept
          </Button>
        </Group>
      </Group>
      {mustConfirm && (
        <ConfirmEmailFirst>Joining a portal waits for a confirmed email address.</ConfirmEmailFirst>
      )}
    </Stack>
  );
}

/** The person's stays as a guest: their codes and the locks they open live in the basic-user area. */
function GuestStaysCard() {
  const { data } = useRentalCenter();
  const stays = data?.guestStays.length ?? 0;
  if (stays === 0) return null;
  return (
    <SectionCard
      title="Your stays"
      description={`You have ${stays === 1 ? 'a stay' : `${stays} stays`} as a guest: the locks it opens and your code are in your area.`}
    >
      <Group>
        <Button
          component={Link}
          to={paths.user.rentalCenter.href()}
          variant="light"
          leftSection={<IconCalendarEvent size={18} aria-hidden="true" />}
        >
          Open your area
        </Button>
      </Group>
    </SectionCard>
  );
}

/**
 * /app/empty: where a signed-in person who acts in no portal lands (lib/authorization.ts
 * homePathFor, and any portal screen sends them here): start a portal of their own, answer the
 * invitations waiting for them, or open the basic-user area for their stays as a guest.
 */
export function EmptyPage() {
  const { data: session } = useSession();
  const [starting, setStarting] = useState(false);
  if (!session) return null;
  const invitations = session.memberships.filter((m) => m.status === 'invited');
  const canStart = session.portalOwned === null;

  return (
    <Stack gap="lg">
      <PageHeader
        title="Welcome to Latchkey"
        description={
          session.portal
            ? `You are working in ${session.portal.name}. From here you can also start a portal of your own or answer invitations.`
            : 'You are not working in any portal yet. Choose what to do next.'
        }
      />
      {session.portal && (
        <Alert variant="light" color="blue">
          <Anchor component={Link} to={homePathFor(session)}>
            Go to {session.portal.name}
          </Anchor>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: invitations.length > 0 && canStart ? 2 : 1 }} spacing="lg">
        {canStart && (
          <SectionCard
            title="Start your own portal"
            description="Run your own locks, people and rentals. You become its owner and admin; you can invite others later."
          >
            <Group>
              <Button
                leftSection={<IconBuildingPlus size={18} aria-hidden="true" />}
                onClick={() => setStarting(true)}
              >
                Create your portal
              </Button>
            </Group>
          </SectionCard>
        )}
        <SectionCard
          title="Invitations"
          description="Portals whose admins invited you. Accepting one lets you work there."
          aside={
            <ThemeIcon variant="light" radius="xl" aria-hidden="true">
              <IconMailOpened size={18} />
            </ThemeIcon>
          }
        >
          {invitations.length === 0 ? (
            <Text size="sm" c="dimmed">
              No invitations wait for you. An admin can invite {session.user.email} to their portal by email.
            </Text>
          ) : (
            <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }} aria-label="Invitations">
              {invitations.map((membership) => (
                <InvitationRow key={membership.portal._id} membership={membership} />
              ))}
            </Stack>
          )}
        </SectionCard>
      </SimpleGrid>
      <GuestStaysCard />
      <StartPortalModal userId={session.user._id} opened={starting} onClose={() => setStarting(false)} />
    </Stack>
  );
}
