import { STAY_STATES, type GuestStay, type RentalCenter, type RentalCenterStay } from '@latchkey/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconAlertTriangle, IconCalendarEvent, IconHome, IconStar } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { PagedListBody } from '@/components/paged-list-body';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { accessibleClearButton } from '@/lib/clear-button';
import { formatCalendarDate, formatRelative } from '@/lib/format';
import {
  AccessStateBadge,
  describeDates,
  LockAccessBadge,
  STAY_STATE_LABELS,
  StayStateBadge,
} from '@/features/listings/components/stay-text';
import { useRentalCenter, useRentalCenterStays } from '../api/rental-center';

const PAGE = 10;

/** "just now" rather than "now" after "read". */
const since = (iso: string) => {
  const words = formatRelative(iso);
  return words === 'now' ? 'just now' : words;
};

/** A stay's guest, linked to its screen for the portal's admins (members cannot open it). */
function GuestLink({ stay, linked }: { stay: RentalCenterStay; linked: boolean }) {
  if (!linked)
    return (
      <Text fw={600} size="sm">
        {stay.guestName}
      </Text>
    );
  return (
    <Anchor component={Link} to={paths.app.stay.href(stay.listingId, stay._id)} fw={600} size="sm">
      {stay.guestName}
    </Anchor>
  );
}

function StayBadges({ stay }: { stay: RentalCenterStay }) {
  return (
    <Group gap={6} wrap="wrap">
      {stay.state !== 'approved' && <StayStateBadge state={stay.state} size="sm" />}
      {stay.state === 'approved' && <AccessStateBadge state={stay.accessState} size="sm" />}
      {stay.feedName && (
        <Badge color="indigo" variant="light" size="sm">
          From {stay.feedName}
        </Badge>
      )}
      {stay.overlaps && (
        <Badge
          color="red"
          variant="light"
          size="sm"
          leftSection={<IconAlertTriangle size={12} aria-hidden="true" />}
        >
          Double-booked
        </Badge>
      )}
    </Group>
  );
}

/** Each lock of the stay's listing with the guest's access on it. */
function LockStates({ stay }: { stay: RentalCenterStay }) {
  if (stay.locks.length === 0) return null;
  return (
    <Stack
      gap={4}
      component="ul"
      m={0}
      p={0}
      style={{ listStyle: 'none' }}
      aria-label={`${stay.guestName}'s access on each lock`}
    >
      {stay.locks.map((lock) => (
        <Group key={lock.deviceId} gap={6} component="li" wrap="wrap">
          <Text size="xs" c="dimmed" style={{ minWidth: 0, overflowWrap: 'break-word' }}>
            {lock.name}
          </Text>
          <LockAccessBadge access={lock} />
        </Group>
      ))}
    </Stack>
  );
}

function TodayCard({
  title,
  stays,
  empty,
  time,
  linked,
}: {
  title: string;
  stays: RentalCenterStay[];
  empty: string;
  time: (stay: RentalCenterStay) => string;
  linked: boolean;
}) {
  return (
    <SectionCard title={title} aside={<Badge variant="light">{stays.length}</Badge>}>
      {stays.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {stays.map((stay) => (
            <Paper key={stay._id} withBorder radius="md" p="sm" component="li">
              <Stack gap={6}>
                <Group justify="space-between" wrap="wrap" gap="xs">
                  <GuestLink stay={stay} linked={linked} />
                  <Text size="sm">
                    {time(stay)} · {stay.listingTitle}
                  </Text>
                </Group>
                <StayBadges stay={stay} />
                <LockStates stay={stay} />
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}

function FeedProblems({ center }: { center: RentalCenter }) {
  const problems = center.listings.flatMap((listing) =>
    listing.feeds.filter((f) => f.lastError || f.lastWarning).map((feed) => ({ listing, feed })),
  );
  if (problems.length === 0) return null;
  const admin = center.hosting?.scope === 'admin';
  return (
    <Alert
      color="red"
      variant="light"
      icon={<IconAlertTriangle aria-hidden="true" />}
      title="Calendar sync needs you"
    >
      <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {problems.map(({ listing, feed }) => (
          <li key={feed._id}>
            <Text size="sm">
              <strong>
                {feed.name} · {listing.title}
              </strong>
              {': '}
              {feed.lastError ?? feed.lastWarning}
              {feed.lastErrorAt ? ` (${formatRelative(feed.lastErrorAt)})` : ''}{' '}
              {admin && (
                <Anchor component={Link} to={paths.app.listing.href(listing._id)} size="sm">
                  Open {listing.title}
                </Anchor>
              )}
            </Text>
          </li>
        ))}
      </Stack>
    </Alert>
  );
}

function ListingsCard({ center }: { center: RentalCenter }) {
  const admin = center.hosting?.scope === 'admin';
  return (
    <SectionCard title="Listings" description="Upcoming stays, requests and calendar sync per listing.">
      {center.listings.length === 0 ? (
        <EmptyList
          invite
          icon={<IconHome size={28} aria-hidden="true" />}
          title="No listings yet"
          description={admin ? 'List a lock so people can request stays.' : 'You look after no listing here.'}
          action={
            admin ? (
              <Button component={Link} to={paths.app.listingEdit.href('new')} variant="light">
                New listing
              </Button>
            ) : undefined
          }
        />
      ) : (
        <Table.ScrollContainer minWidth={300}>
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Listing</Table.Th>
                <Table.Th scope="col">Upcoming</Table.Th>
                <Table.Th scope="col" visibleFrom="sm">
                  Calendar sync
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {center.listings.map((listing) => (
                <Table.Tr key={listing._id}>
                  <Table.Td>
                    {admin ? (
                      <Anchor component={Link} to={paths.app.listing.href(listing._id)} fw={600} size="sm">
                        {listing.title}
                      </Anchor>
                    ) : (
                      <Text fw={600} size="sm">
                        {listing.title}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {listing.timeZone}
                      {listing.published ? '' : ' · not published'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {listing.upcomingStays} stay{listing.upcomingStays === 1 ? '' : 's'}
                      {listing.nextArrival ? ` · next ${formatCalendarDate(listing.nextArrival)}` : ''}
                    </Text>
                    {listing.pendingRequests > 0 && (
                      <Badge color="yellow" variant="light" size="sm">
                        {listing.pendingRequests} to answer
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    {listing.feeds.length === 0 ? (
                      <Text size="xs" c="dimmed">
                        No imported calendar
                      </Text>
                    ) : (
                      <Group gap={4}>
                        {listing.feeds.map((feed) => (
                          <Badge
                            key={feed._id}
                            color={feed.lastError ? 'red' : feed.lastSuccessAt ? 'teal' : 'gray'}
                            variant="light"
                            size="sm"
                          >
                            {feed.name}:{' '}
                            {feed.lastError
                              ? 'failing'
                              : feed.lastSuccessAt
                                ? `read ${since(feed.lastSuccessAt)}`
                                : 'not read yet'}
                          </Badge>
                        ))}
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </SectionCard>
  );
}

const WHEN_OPTIONS = [
  { value: 'upcoming', label: 'Upcoming and current' },
  { value: 'current', label: 'Staying now' },
  { value: 'past', label: 'Past' },
];

function StaysCard({ center }: { center: RentalCenter }) {
  const [page, setPage] = useState(1);
  const [listing, setListing] = useState<string | null>(null);
  const [when, setWhen] = useState<string | null>('upcoming');
  const [state, setState] = useState<string | null>(null);
  const filter = listing
    ? { filterBy: 'listingId' as const, filterValue: listing }
    : state
      ? { filterBy: 'state' as const, filterValue: state }
      : when
        ? { filterBy: 'when' as const, filterValue: when }
        : {};
  const stays = useRentalCenterStays({
    skip: (page - 1) * PAGE,
    limit: PAGE,
    sortBy: 'startDate',
    ...filter,
  });
  const linked = center.hosting?.scope === 'admin';
  const choose = (set: (value: string | null) => void) => (value: string | null) => {
    set(value);
    setPage(1);
  };
  return (
    <SectionCard
      title="Stays"
      description="Every listing's stays, with the guest's access on each lock. One filter at a time."
    >
      <Group gap="sm" mb="md" wrap="wrap">
        <Select
          label="Listing"
          placeholder="All listings"
          data={center.listings.map((l) => ({ value: l._id, label: l.title }))}
          value={listing}
          onChange={choose(setListing)}
          clearable
          clearButtonProps={accessibleClearButton('Clear listing')}
          w={200}
        />
        <Select
          label="When"
          placeholder="Any time"
          data={WHEN_OPTIONS}
          value={listing || state ? null : when}
          disabled={Boolean(listing || state)}
          onChange={choose(setWhen)}
          clearable
          clearButtonProps={accessibleClearButton('Clear when')}
          w={220}
        />
        <Select
          label="State"
          placeholder="Any state"
          data={STAY_STATES.map((value) => ({ value, label: STAY_STATE_LABELS[value] }))}
          value={listing ? null : state}
          disabled={Boolean(listing)}
          onChange={choose(setState)}
          clearable
          clearButtonProps={accessibleClearButton('Clear state')}
          w={180}
        />
      </Group>
      <PagedListBody
        query={stays}
        loadingLabel="Loading stays"
        errorTitle="Could not load the stays"
        filtered={Boolean(listing || state || when)}
        empty={
          <EmptyList
            invite
            icon={<IconCalendarEvent size={28} aria-hidden="true" />}
            title="No stays yet"
            description="Requests, bookings and imported reservations show here."
          />
        }
        noMatch={
          <NoMatchList
            title="Nothing here"
            description="No stay in this selection."
            showAll="Show every stay"
            onShowAll={() => {
              setListing(null);
              setState(null);
              setWhen(null);
            }}
          />
        }
        list={{ page, pageSize: PAGE, setPage }}
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
                <Table.Th scope="col">Access on each lock</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {items.map((stay) => (
                <Table.Tr key={stay._id}>
                  <Table.Td>
                    <GuestLink stay={stay} linked={linked} />
                    <Text size="xs" c="dimmed">
                      {stay.listingTitle}
                    </Text>
                    <Text size="xs" hiddenFrom="sm" mt={4}>
                      {describeDates(stay)}
                    </Text>
                  </Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Text size="sm">{describeDates(stay)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Stack gap={6}>
                      <StayBadges stay={stay} />
                      <LockStates stay={stay} />
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </>
        )}
      </PagedListBody>
    </SectionCard>
  );
}

function GuestStays({ stays }: { stays: GuestStay[] }) {
  return (
    <SectionCard title="Your stays" description="Stays you saved to your account from your stay link.">
      <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {stays.map((stay) => (
          <Paper key={stay._id} withBorder radius="md" p="sm" component="li">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Stack gap={2}>
                <Text fw={600}>{stay.listingTitle}</Text>
                <Text size="sm">
                  {formatCalendarDate(stay.startDate)} from {stay.checkInTime} –{' '}
                  {formatCalendarDate(stay.endDate)} until {stay.checkOutTime} ({stay.timeZone})
                </Text>
              </Stack>
              <Group gap="xs">
                {stay.state !== 'approved' && <StayStateBadge state={stay.state} size="sm" />}
                {stay.landingPath && (
                  <Button component={Link} to={stay.landingPath} size="xs" variant="light">
                    Your stay page
                  </Button>
                )}
                {stay.reviewed ? (
                  <Badge color="teal" variant="light" leftSection={<IconStar size={12} aria-hidden="true" />}>
                    Reviewed
                  </Badge>
                ) : (
                  stay.reviewPath && (
                    <Button
                      component={Link}
                      to={stay.reviewPath}
                      size="xs"
                      variant="default"
                      leftSection={<IconStar size={14} aria-hidden="true" />}
                    >
                      Review your stay
                    </Button>
                  )
                )}
              </Group>
            </Group>
          </Paper>
        ))}
      </Stack>
    </SectionCard>
  );
}

function Loading() {
  return (
    <Stack gap="lg" role="status" aria-label="Loading the rental center">
      <Skeleton height={34} width="40%" radius="sm" />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Skeleton height={160} radius="lg" />
        <Skeleton height={160} radius="lg" />
      </SimpleGrid>
      <Skeleton height={240} radius="lg" />
    </Stack>
  );
}

/** /app/rentalcenter: for anyone signed in, what they host here and the stays they keep as a guest. */
export function RentalCenterPage() {
  const center = useRentalCenter();
  let body: ReactNode;
  if (center.isPending) return <Loading />;
  if (center.error) {
    body = (
      <Paper p="md" radius="lg">
        <QueryError
          title="Could not load the rental center"
          error={center.error}
          onRetry={() => void center.refetch()}
        />
      </Paper>
    );
  } else {
    const data = center.data;
    const hosting = data.hosting;
    const linked = hosting?.scope === 'admin';
    const today = data.listings[0]?.today;
    body =
      !hosting && data.guestStays.length === 0 ? (
        <EmptyList
          icon={<IconHome size={28} aria-hidden="true" />}
          title="Nothing to show here"
          description="You host no listing in this portal, and you have saved no stay as a guest. Stays you save from your stay link show here."
        />
      ) : (
        <Stack gap="lg">
          {hosting && (
            <>
              <FeedProblems center={data} />
              <Group gap="md">
                <Text size="sm">
                  {today ? `Today, ${formatCalendarDate(today)}` : 'Today'} · {data.stayingNow} stay
                  {data.stayingNow === 1 ? '' : 's'} under way
                </Text>
              </Group>
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
                <TodayCard
                  title="Arriving today"
                  stays={data.arrivalsToday}
                  empty="Nobody arrives today."
                  time={(s) => `from ${s.checkInTime}`}
                  linked={linked}
                />
                <TodayCard
                  title="Leaving today"
                  stays={data.departuresToday}
                  empty="Nobody leaves today."
                  time={(s) => `until ${s.checkOutTime}`}
                  linked={linked}
                />
              </SimpleGrid>
              <SectionCard
                title="Requests to answer"
                aside={
                  <Badge variant="light" color={data.pendingRequests.total > 0 ? 'yellow' : 'gray'}>
                    {data.pendingRequests.total}
                  </Badge>
                }
              >
                {data.pendingRequests.total === 0 ? (
                  <Text size="sm" c="dimmed">
                    No request waits for an answer.
                  </Text>
                ) : (
                  <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
                    {data.pendingRequests.items.map((stay) => (
                      <Group key={stay._id} component="li" gap="xs" wrap="wrap">
                        <GuestLink stay={stay} linked={linked} />
                        <Text size="sm">
                          {stay.listingTitle} · {describeDates(stay)}
                        </Text>
                        <StayBadges stay={stay} />
                        <Text size="xs" c="dimmed">
                          asked {formatRelative(stay.createdAt)}
                        </Text>
                      </Group>
                    ))}
                    {data.pendingRequests.total > data.pendingRequests.items.length && (
                      <Text size="xs" c="dimmed" component="li">
                        and {data.pendingRequests.total - data.pendingRequests.items.length} more (filter the
                        stays below by state)
                      </Text>
                    )}
                  </Stack>
                )}
              </SectionCard>
              <ListingsCard center={data} />
              {data.listings.length > 0 && <StaysCard center={data} />}
            </>
          )}
          {data.guestStays.length > 0 && <GuestStays stays={data.guestStays} />}
        </Stack>
      );
  }
  const hosting = center.data?.hosting;
  return (
    <Stack gap="lg">
      <PageHeader
        title="Rental center"
        description={
          hosting
            ? `${hosting.portalName} · ${hosting.scope === 'admin' ? 'every listing' : 'the listings you look after'}`
            : 'Your stays as a guest'
        }
      />
      {body}
    </Stack>
  );
}
