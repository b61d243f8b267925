import type { PortalMember, RfidCard } from '@latchkey/shared';
import { ActionIcon, Badge, Button, Divider, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconId, IconPlus, IconTrash } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { formatUid, formatValidity } from '@/lib/format';
import { displayName } from '@/lib/session';
import { useMemberRfids } from '../api/get-member-rfids';
import { useRevokeCard } from '@/features/cards/api/revoke-card';
import { RegisterCardModal } from './register-card-modal';

function validityBadge(card: RfidCard, now = Date.now()) {
  if (card.validUntil && new Date(card.validUntil).getTime() <= now) {
    return (
      <Badge color="gray" variant="light">
        Expired
      </Badge>
    );
  }
  if (card.validFrom && new Date(card.validFrom).getTime() > now) {
    return (
      <Badge color="blue" variant="light">
        Not yet valid
      </Badge>
    );
  }
  return null;
}

const cardLabel = (card: RfidCard) => card.name || `Card ${formatUid(card.uid)}`;

function CardRow({ card, onRevoke }: { card: RfidCard; onRevoke: () => void }) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm" py="sm" wrap="nowrap">
      <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600} size="sm">
            {card.name || 'Unlabelled card'}
          </Text>
          {validityBadge(card)}
        </Group>
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} aria-label={`UID ${card.uid}`}>
          {formatUid(card.uid)}
        </Text>
        <Text size="xs" c="dimmed">
          Valid: {formatValidity(card.validFrom, card.validUntil)}
        </Text>
      </Stack>
      <Tooltip label="Revoke">
        <ActionIcon
          variant="subtle"
          color="red"
          size="lg"
          onClick={onRevoke}
          aria-label={`Revoke ${cardLabel(card)}`}
        >
          <IconTrash size={18} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** The RFID cards a person carries: register one, revoke one. */
export function MemberCardsCard({ member }: { member: PortalMember }) {
  const cards = useMemberRfids(member._id);
  const revoke = useRevokeCard();
  const [registering, { open, close }] = useDisclosure(false);
  const [revoking, setRevoking] = useState<RfidCard | null>(null);
  const name = displayName(member);

  const confirmRevoke = async () => {
    if (!revoking) return;
    try {
      await revoke.mutateAsync(revoking._id);
      notifications.show({
        color: 'teal',
        title: 'Card revoked',
        message: `${cardLabel(revoking)} no longer opens anything.`,
      });
      setRevoking(null);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not revoke the card', message: errorMessage(error) });
    }
  };

  const registerButton = (
    <Button size="sm" variant="light" leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={open}>
      Register a card
    </Button>
  );

  let body;
  if (cards.isPending) body = <TableSkeleton rows={2} label="Loading cards" />;
  else if (cards.error)
    body = (
      <QueryError title="Could not load the cards" error={cards.error} onRetry={() => void cards.refetch()} />
    );
  else if (cards.data.length === 0) {
    body = (
      <Stack align="center" gap={6} py="md" ta="center">
        <IconId size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No cards yet</Text>
        <Text size="sm" c="dimmed">
          A registered card opens the locks {name} may open, at the times they may.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Their cards">
        {cards.data.map((card, index) => (
          <Fragment key={card._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <CardRow card={card} onRevoke={() => setRevoking(card)} />
            </li>
          </Fragment>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Cards"
      description="RFID cards and fobs that open their locks."
      aside={registerButton}
    >
      {body}
      <RegisterCardModal
        opened={registering}
        member={member}
        onCancel={close}
        onRegistered={(card) => {
          close();
          notifications.show({
            color: 'teal',
            title: 'Card registered',
            message: `${cardLabel(card)} now opens ${name}'s locks.`,
          });
        }}
      />
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title={`Revoke ${revoking ? cardLabel(revoking) : 'the card'}?`}
        confirmLabel="Revoke card"
        loading={revoke.isPending}
        onConfirm={() => void confirmRevoke()}
      >
        {`The card stops opening ${name}'s locks at once. To use it again, register it again.`}
      </ConfirmDialog>
    </SectionCard>
  );
}
