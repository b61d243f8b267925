import type { PortalMember } from '@latchkey/shared';
import { Button, Group, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconUserCheck, IconUserMinus, IconUserOff } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { MemberStatusBadge } from '@/components/member-badges';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { displayName } from '@/lib/session';
import { memberKeys } from '../api/query-keys';
import { useRemoveMember } from '../api/remove-member';
import { useSetMemberStatus } from '../api/set-member-status';

const STATUS_TEXT: Record<PortalMember['status'], string> = {
  active: 'They can open the locks they have access to.',
  // Suspension is for people who have joined; until then, removing withdraws the invitation and
  // takes away the codes and cards the portal already gave them.
  invited:
    'They have not accepted the invitation yet. Their codes and cards already work; remove them to withdraw the invitation and that access.',
  suspended: 'They cannot open any lock here until activated again.',
};

interface MembershipCardProps {
  member: PortalMember;
  /** The person is the signed-in admin. */
  isSelf: boolean;
}

/** Status (suspend / activate) and removal from the portal. */
export function MembershipCard({ member, isSelf }: MembershipCardProps) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const setStatus = useSetMemberStatus();
  const remove = useRemoveMember();
  const [confirm, setConfirm] = useState<'suspend' | 'remove' | null>(null);
  const name = displayName(member);
  const locked = member.owner ? 'The portal owner' : isSelf ? 'You' : null;

  const changeStatus = async (status: 'active' | 'suspended') => {
    try {
      await setStatus.mutateAsync({ userId: member._id, status });
      setConfirm(null);
      notifications.show({
        color: 'teal',
        title: status === 'suspended' ? 'Suspended' : 'Activated',
        message:
          status === 'suspended'
            ? `${name} can no longer open any lock here.`
            : `${name} can open their locks again.`,
      });
    } catch (error) {
      setConfirm(null);
      notifications.show({
        color: 'red',
        title: status === 'suspended' ? 'Could not suspend' : 'Could not activate',
        message: errorMessage(error),
      });
    }
  };

  const removeMember = async () => {
    try {
      await remove.mutateAsync(member._id);
      setConfirm(null);
      notifications.show({
        color: 'teal',
        title: 'Removed',
        message: `${name} is no longer in this portal.`,
      });
      await navigate(paths.app.members.href());
      queryClient.removeQueries({ queryKey: memberKeys.detail(member._id) });
    } catch (error) {
      setConfirm(null);
      notifications.show({ color: 'red', title: 'Could not remove', message: errorMessage(error) });
    }
  };

  const lockedHint = locked && `${locked} cannot be suspended or removed.`;

  return (
    <SectionCard title="Membership">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <MemberStatusBadge status={member.status} size="lg" />
          <Text size="sm" c="dimmed">
            {STATUS_TEXT[member.status]}
          </Text>
        </Group>
        <Group gap="sm" wrap="wrap">
          {member.status === 'suspended' ? (
            <Button
              variant="light"
              color="teal"
              leftSection={<IconUserCheck size={16} aria-hidden="true" />}
              loading={setStatus.isPending}
              onClick={() => void changeStatus('active')}
            >
              Activate
            </Button>
          ) : member.status === 'invited' ? null : (
            <Tooltip label={lockedHint} disabled={!locked}>
              <Button
                variant="light"
                color="orange"
                leftSection={<IconUserOff size={16} aria-hidden="true" />}
                disabled={Boolean(locked)}
                onClick={() => setConfirm('suspend')}
              >
                Suspend
              </Button>
            </Tooltip>
          )}
          <Tooltip label={lockedHint} disabled={!locked}>
            <Button
              variant="subtle"
              color="red"
              leftSection={<IconUserMinus size={16} aria-hidden="true" />}
              disabled={Boolean(locked)}
              onClick={() => setConfirm('remove')}
            >
              Remove from portal
            </Button>
          </Tooltip>
        </Group>
        {locked && (
          <Text size="xs" c="dimmed">
            {lockedHint}
          </Text>
        )}
      </Stack>
      <ConfirmDialog
        opened={confirm === 'suspend'}
        onClose={() => setConfirm(null)}
        title={`Suspend ${name}?`}
        confirmLabel="Suspend"
        color="orange"
        loading={setStatus.isPending}
        onConfirm={() => void changeStatus('suspended')}
      >
        They can no longer open any lock here. Their access, code and schedules are kept for when you activate
        them again.
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirm === 'remove'}
        onClose={() => setConfirm(null)}
        title={`Remove ${name} from the portal?`}
        confirmLabel="Remove from portal"
        loading={remove.isPending}
        onConfirm={() => void removeMember()}
      >
        They leave this portal and can no longer open any of its locks. Their Latchkey account itself is not
        deleted, and the change log keeps what they did.
      </ConfirmDialog>
    </SectionCard>
  );
}
