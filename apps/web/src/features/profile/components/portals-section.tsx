import type { Membership, Session } from '@latchkey/shared';
import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconBuilding, IconBuildingPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useSwitchPortal } from '@/features/portal/api/switch-portal';
import { StartPortalModal } from './start-portal-modal';

const STATUS_COLORS: Record<Membership['status'], string> = {
  active: 'teal',
  invited: 'yellow',
  suspended: 'red',
};

function roleText(membership: Membership): string {
  if (membership.owner) return 'Owner';
  return membership.role === 'admin' ? 'Admin' : 'User';
}

/**
 * "Your portals": every membership with its role and state. Active ones open with one click (the
 * same switch as the header's), invitations lead to their answer page.
 */
export function PortalsSection({ session }: { session: Session }) {
  const navigate = useNavigate();
  const switchPortal = useSwitchPortal();
  const currentId = session.portal?._id;
  const [starting, setStarting] = useState(false);

  const open = (membership: Membership) =>
    switchPortal.mutate(membership.portal._id, {
      onSuccess: () => void navigate(paths.auth.landing.href()),
      onError: (error) =>
        notifications.show({
          color: 'red',
          title: 'Could not open the portal',
          message: errorMessage(error),
        }),
    });

  return (
    <SectionCard
      title="Your portals"
      description="The portals you belong to, with your role in each."
      aside={
        <Text size="sm" c="dimmed">
          {session.memberships.length}
        </Text>
      }
    >
      {session.memberships.length === 0 ? (
        <Text size="sm" c="dimmed">
          You do not belong to any portal yet. An admin can invite you by email.
        </Text>
      ) : (
        <Stack
          gap={0}
          component="ul"
          aria-label="Your portals"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {session.memberships.map((membership) => (
            <Group
              key={membership.portal._id}
              component="li"
              justify="space-between"
              wrap="nowrap"
              gap="sm"
              py="sm"
              style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
            >
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 0 }}>
                <IconBuilding size={20} stroke={1.6} aria-hidden="true" style={{ flexShrink: 0 }} />
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={600} size="sm" truncate="end">
                    {membership.portal.name}
                  </Text>
                  <Group gap={6}>
                    <Text size="xs" c="dimmed">
                      {roleText(membership)}
                    </Text>
                    <Badge size="xs" variant="light" color={STATUS_COLORS[membership.status]}>
                      {membership.status}
                    </Badge>
                  </Group>
                </Stack>
              </Group>
              {membership.portal._id === currentId ? (
                <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                  Current
                </Text>
              ) : membership.status === 'active' ? (
                <Button
                  size="xs"
                  variant="default"
                  style={{ flexShrink: 0 }}
                  loading={switchPortal.isPending && switchPortal.variables === membership.portal._id}
                  onClick={() => open(membership)}
                  aria-label={`Open ${membership.portal.name}`}
                >
                  Open
                </Button>
              ) : membership.status === 'invited' ? (
                <Anchor
                  component={Link}
                  to={paths.space.href(membership.portal._id)}
                  size="sm"
                  style={{ flexShrink: 0 }}
                >
                  Answer the invitation
                </Anchor>
              ) : null}
            </Group>
          ))}
        </Stack>
      )}
      {session.portalOwned === null && (
        <Group justify="space-between" gap="sm" mt="md" wrap="wrap">
          <Text size="sm" c="dimmed">
            Want to run locks yourself? Start a portal of your own.
          </Text>
          <Button
            variant="light"
            leftSection={<IconBuildingPlus size={18} aria-hidden="true" />}
            onClick={() => setStarting(true)}
          >
            Start your own portal
          </Button>
        </Group>
      )}
      <StartPortalModal userId={session.user._id} opened={starting} onClose={() => setStarting(false)} />
    </SectionCard>
  );
}
