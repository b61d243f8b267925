import type { Device, RfidCard } from '@latchkey/shared';
import { ActionIcon, Anchor, Badge, Divider, Group, Stack, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconId, IconPencil } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { Link } from 'react-router';
import { EditCardModal } from '@/features/cards/components/edit-card-modal';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { formatUid, formatValidity } from '@/lib/format';
import { useDeviceRfids } from '../api/get-device-rfids';

function Holder({ holder }: { holder: RfidCard['holder'] }) {
  if (!holder) {
    return (
      <Text size="sm" c="dimmed">
        Nobody holds it
      </Text>
    );
  }
  return (
    <Anchor component={Link} to={paths.app.member.href(holder._id)} size="sm" fw={600}>
      {holder.name || holder.email}
    </Anchor>
  );
}

function CardRow({ card, now, onEdit }: { card: RfidCard; now: number; onEdit: () => void }) {
  const expired = card.validUntil !== null && new Date(card.validUntil).getTime() <= now;
  return (
    <Group justify="space-between" align="flex-start" gap="sm" py="sm" wrap="wrap">
      <Stack gap={4} style={{ flex: '1 1 220px', minWidth: 0 }}>
        <Holder holder={card.holder} />
        {card.holder && card.holder.name && card.holder.name !== card.holder.email && (
          <Text size="xs" c="dimmed">
            {card.holder.email}
          </Text>
        )}
      </Stack>
      <Stack gap={4} style={{ flex: '1 1 220px', minWidth: 0 }}>
        <Group gap="xs" wrap="wrap">
          <Text size="sm">{card.name || 'Unlabelled card'}</Text>
          {expired && (
            <Badge color="gray" variant="light" size="sm">
              Expired
            </Badge>
          )}
        </Group>
        <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {formatUid(card.uid)}
        </Text>
        <Text size="xs" c="dimmed">
          Valid: {formatValidity(card.validFrom, card.validUntil)}
        </Text>
      </Stack>
      <Tooltip label="Edit" withArrow>
        <ActionIcon
          variant="subtle"
          size="lg"
          onClick={onEdit}
          aria-label={`Edit the card ${card.name || formatUid(card.uid)}`}
        >
          <IconPencil size={18} aria-hidden="true" />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}

/** The Cards tab: the RFID cards that reach this lock, who holds them, and editing one. */
export function DeviceCardsTab({ device }: { device: Device }) {
  const { data, error, isPending, refetch } = useDeviceRfids(device._id);
  const [now] = useState(() => Date.now());
  const [editing, setEditing] = useState<RfidCard | null>(null);

  let body;
  if (isPending) body = <TableSkeleton rows={3} label="Loading cards" />;
  else if (error)
    body = <QueryError title="Could not load the cards" error={error} onRetry={() => void refetch()} />;
  else if (data.length === 0) {
    body = (
      <Stack align="center" gap={6} py="lg" ta="center">
        <IconId size={32} stroke={1.4} aria-hidden="true" color="var(--mantine-color-dimmed)" />
        <Text fw={600}>No card reaches this lock</Text>
        <Text size="sm" c="dimmed">
          Register cards on a person&apos;s page; they open the locks that person may open.
        </Text>
      </Stack>
    );
  } else {
    body = (
      <Stack gap={0} component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Cards">
        {data.map((card, index) => (
          <Fragment key={card._id}>
            {index > 0 && <Divider component="li" aria-hidden="true" />}
            <li>
              <CardRow card={card} now={now} onEdit={() => setEditing(card)} />
            </li>
          </Fragment>
        ))}
      </Stack>
    );
  }

  return (
    <SectionCard
      title="Cards"
      description="RFID cards whose holders may open this lock. Register cards on each person's page."
    >
      {body}
      <EditCardModal
        card={editing}
        onClose={() => setEditing(null)}
        onSaved={(card) => {
          setEditing(null);
          notifications.show({
            color: 'teal',
            title: 'Card saved',
            message: card.holder
              ? `${card.name || formatUid(card.uid)} is held by ${card.holder.name || card.holder.email}.`
              : `${card.name || formatUid(card.uid)} is held by nobody and opens nothing.`,
          });
        }}
      />
    </SectionCard>
  );
}
