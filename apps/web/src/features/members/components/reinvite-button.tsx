import { INVITATION_DAYS, type PortalMember } from '@latchkey/shared';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconMailForward } from '@tabler/icons-react';
import { errorMessage } from '@/lib/errors';
import { displayName } from '@/lib/session';
import { useReinviteMember } from '../api/invite-member';

/** "Re-invite" on an invited person's row: the mail again, with a new link and period. */
export function ReinviteButton({ member }: { member: PortalMember }) {
  const reinvite = useReinviteMember();
  const name = displayName(member);
  return (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconMailForward size={14} aria-hidden="true" />}
      loading={reinvite.isPending}
      aria-label={`Re-invite ${name}`}
      onClick={() =>
        reinvite.mutate(member._id, {
          onSuccess: () =>
            notifications.show({
              color: 'teal',
              title: 'Invitation sent again',
              message: `${member.email} has a new link, open for ${INVITATION_DAYS} days.`,
            }),
          onError: (error) =>
            notifications.show({
              color: 'red',
              title: `Could not re-invite ${name}`,
              message: errorMessage(error),
            }),
        })
      }
    >
      Re-invite
    </Button>
  );
}
