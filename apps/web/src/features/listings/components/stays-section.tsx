import { STAY_STATES, type StaySummary } from '@latchkey/shared';
import { Anchor, Group, Select, Table, Text } from '@mantine/core';
import { IconCalendarEvent } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { PagedListBody } from '@/components/paged-list-body';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { accessibleClearButton } from '@/lib/clear-button';
import { formatRelative } from '@/lib/format';
import { FIRST_STAYS_VIEW, STAYS_PAGE_SIZE, useStays } from '../api/stays';
import {
  AccessStateBadge,
  describeDates,
  STAY_ORIGINS,
  STAY_STATE_LABELS,
  StayStateBadge,
} from './stay-text';

const WHEN_OPTIONS = [
  { value: 'upcoming', label: 'Upcoming and current' },
  { value: 'past', label: 'Past' },
];

function StayRow({ listingId, stay }: { listingId: string; stay: StaySummary }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={paths.app.stay.href(listingId, stay._id)} fw={600} size="sm">
          {stay.guestName}
        </Anchor>
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {stay.guestEmail}
        </Text>
        <Text size="xs" hiddenFrom="sm" mt={4}>
          {describeDates(stay)}
        </Text>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{describeDates(stay)}</Text>
        <Text size="xs" c="dimmed">
          {STAY_ORIGINS[stay.source].verb} {formatRelative(stay.createdAt)}
        </Text>
      </Table.Td>
      <Table.Td>
        <Group gap={6}>
          <StayStateBadge state={stay.state} />
          {stay.state === 'approved' && <AccessStateBadge state={stay.accessState} />}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** The listing's requests and stays: pending first when filtered, else by arrival. */
export function StaysSection({ listingId }: { listingId: string }) {
  const [page, setPage] = useState(FIRST_STAYS_VIEW.page);
  const [state, setState] = useState(FIRST_STAYS_VIEW.state);
  const [when, setWhen] = useState(FIRST_STAYS_VIEW.when);
  const stays = useStays(listingId, { page, state, when });
  return (
    <SectionCard
      title="Requests and stays"
      description="Open one to approve it, change it or see its code on each lock."
    >
      <Group gap="sm" mb="md" wrap="wrap">
        <Select
          label="State"
          placeholder="Any state"
          data={STAY_STATES.map((value) => ({ value, label: STAY_STATE_LABELS[value] }))}
          value={state}
          onChange={(value) => {
            setState(value);
            setPage(1);
          }}
          clearable
          clearButtonProps={accessibleClearButton('Clear state')}
          w={200}
        />
        <Select
          label="When"
          placeholder="Any time"
          data={WHEN_OPTIONS}
          value={state ? null : when}
          disabled={Boolean(state)}
          onChange={(value) => {
            setWhen(value);
            setPage(1);
          }}
          clearable
          clearButtonProps={accessibleClearButton('Clear when')}
          w={220}
        />
      </Group>
      <PagedListBody
        query={stays}
        loadingLabel="Loading requests"
        errorTitle="Could not load the requests"
        filtered={Boolean(state || when)}
        empty={
          <EmptyList
            invite
            icon={<IconCalendarEvent size={28} aria-hidden="true" />}
            title="No requests yet"
            description="Share the public request page: requests arrive here and by mail."
          />
        }
        noMatch={
          <NoMatchList
            title="Nothing here"
            description="No request or stay in this selection."
            showAll="Show everything"
            onShowAll={() => {
              setState(null);
              setWhen(null);
            }}
          />
        }
        list={{ page, pageSize: STAYS_PAGE_SIZE, setPage }}
        noun={['stay', 'stays']}
      >
        {(items) => (
          <>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Guest</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Dates
                </Table.Th>
                <Table.Th scope="col">State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((stay) => (
                <StayRow key={stay._id} listingId={listingId} stay={stay} />
              ))}
            </Table.Tbody>
          </>
        )}
      </PagedListBody>
    </SectionCard>
  );
}
