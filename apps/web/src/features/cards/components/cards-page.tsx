import type { RfidCard } from '@latchkey/shared';
import { ActionIcon, Anchor, Badge, Button, Group, Stack, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconId, IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EditCardModal } from './edit-card-modal';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { ListFilters } from '@/components/list-filters';
import { SortableTh } from '@/components/sortable-th';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDate, formatRelative, formatUid, formatValidity } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';
import { useCards } from '../api/get-cards';
import { useRevokeCard } from '../api/revoke-card';
import { ListPage } from '@/components/list-page';

const SORT_FIELDS = ['uid', 'name', 'createdAt'] as const;
type CardSort = (typeof SORT_FIELDS)[number];

const cardName = (card: RfidCard) => card.name || formatUid(card.uid);

function Holder({ holder }: { holder: RfidCard['holder'] }) {
  if (!holder) {
    return (
      <Text size="sm" c="dimmed">
        Nobody
      </Text>
    );
  }
  return (
    <Anchor
      component={Link}
      to={paths.app.member.href(holder._id)}
      size="sm"
      style={{ overflowWrap: 'anywhere' }}
    >
      {holder.name || holder.email}
    </Anchor>
  );
}

function Validity({ card, now }: { card: RfidCard; now: number }) {
  const expired = card.validUntil !== null && new Date(card.validUntil).getTime() <= now;
  const early = card.validFrom !== null && new Date(card.validFrom).getTime() > now;
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm">{formatValidity(card.validFrom, card.validUntil)}</Text>
      {expired && (
        <Badge size="xs" color="gray" variant="light">
          Expired
        </Badge>
      )}
      {early && (
        <Badge size="xs" color="blue" variant="light">
          Not valid yet
        </Badge>
      )}
    </Stack>
  );
}

interface CardRowProps {
  card: RfidCard;
  now: number;
  onEdit: () => void;
  onRevoke: () => void;
}

function CardRow({ card, now, onEdit, onRevoke }: CardRowProps) {
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" ff="monospace" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {formatUid(card.uid)}
        </Text>
        <Text size="xs" c="dimmed" hiddenFrom="sm">
          {card.name || 'Unlabelled'}
        </Text>
        {/* On phones the holder rides along under the UID. */}
        <Group gap={4} hiddenFrom="sm" mt={2}>
          <Text size="xs" c="dimmed">
            Held by
          </Text>
          <Holder holder={card.holder} />
        </Group>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm" c={card.name ? undefined : 'dimmed'}>
          {card.name || 'Unlabelled'}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Holder holder={card.holder} />
      </Table.Td>
      <Table.Td visibleFrom="md">
        <Validity card={card} now={now} />
      </Table.Td>
      <Table.Td visibleFrom="md" style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm" component="time" dateTime={card.createdAt} title={formatDate(card.createdAt)}>
          {formatRelative(card.createdAt)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Tooltip label="Edit" withArrow>
            <ActionIcon
              variant="subtle"
              size="lg"
              onClick={onEdit}
              aria-label={`Edit the card ${cardName(card)}`}
            >
              <IconPencil size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Revoke" withArrow>
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              onClick={onRevoke}
              aria-label={`Revoke the card ${cardName(card)}`}
            >
              <IconTrash size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** /app/cards (admin): every RFID card of the portal, searchable and sortable; edit and revoke. */
export function CardsPage() {
  const list = useListParams<CardSort>({
    sortFields: SORT_FIELDS,
    defaultSort: 'createdAt',
    defaultDescending: true,
  });
  const cards = useCards(list.query);
  const revoke = useRevokeCard();
  const [now] = useState(() => Date.now());
  const [editing, setEditing] = useState<RfidCard | null>(null);
  const [revoking, setRevoking] = useState<RfidCard | null>(null);

  const confirmRevoke = async () => {
    if (!revoking) return;
    try {
      await revoke.mutateAsync(revoking._id);
      notifications.show({
        color: 'teal',
        title: 'Card revoked',
        message: `${cardName(revoking)} no longer opens any lock.`,
      });
      setRevoking(null);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not revoke the card', message: errorMessage(error) });
    }
  };

  return (
    <ListPage
      title="Cards"
      description="Every RFID card in the portal and who carries it. Register new cards on a person's page."
      filters={
        <ListFilters list={list} searchLabel="Search cards" searchPlaceholder="UID, label or holder" />
      }
      query={cards}
      loadingLabel="Loading cards"
      errorTitle="Could not load the cards"
      filtered={Boolean(list.search)}
      empty={
        <EmptyList
          invite
          icon={<IconId size={28} aria-hidden="true" />}
          title="No cards yet"
          description="Register a card on the page of the person who carries it: it opens the locks they may open."
          action={
            <Button component={Link} to={paths.app.members.href()} variant="default">
              Go to people
            </Button>
          }
        />
      }
      noMatch={
        <NoMatchList
          title="No cards match"
          description="Try another UID, label or name."
          showAll="Show all cards"
          onShowAll={() => list.setParams({ search: null })}
        />
      }
      list={list}
      noun={['card', 'cards']}
      minWidth={320}
      table={(items) => (
        <>
          <Table.Thead>
            <Table.Tr>
              <SortableTh {...list.sortProps('uid')}>UID</SortableTh>
              <SortableTh {...list.sortProps('name')} visibleFrom="sm">
                Label
              </SortableTh>
              <Table.Th scope="col" visibleFrom="sm">
                Holder
              </Table.Th>
              <Table.Th scope="col" visibleFrom="md">
                Valid
              </Table.Th>
              <SortableTh {...list.sortProps('createdAt')} visibleFrom="md">
                Added
              </SortableTh>
              <Table.Th scope="col" ta="right">
                Actions
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((card) => (
              <CardRow
                key={card._id}
                card={card}
                now={now}
                onEdit={() => setEditing(card)}
                onRevoke={() => setRevoking(card)}
              />
            ))}
          </Table.Tbody>
        </>
      )}
    >
      <EditCardModal
        card={editing}
        onClose={() => setEditing(null)}
        onSaved={(card) => {
          setEditing(null);
          notifications.show({ color: 'teal', title: 'Card saved', message: `${cardName(card)} was saved.` });
        }}
      />
      <ConfirmDialog
        opened={revoking !== null}
        onClose={() => setRevoking(null)}
        title="Revoke the card?"
        confirmLabel="Revoke card"
        loading={revoke.isPending}
        onConfirm={() => void confirmRevoke()}
      >
        {revoking &&
          `${cardName(revoking)}${revoking.holder ? ` (held by ${revoking.holder.name || revoking.holder.email})` : ''} stops opening every lock at once. To use it again, register it anew.`}
      </ConfirmDialog>
    </ListPage>
  );
}
