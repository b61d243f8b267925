import { describeNightlyPrice, type Listing } from '@latchkey/shared';
import { Anchor, Badge, Button, Group, Image, SimpleGrid, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  IconCalendarEvent,
  IconExternalLink,
  IconInfoCircle,
  IconLock,
  IconPencil,
  IconStar,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useDeleteListing, useListing } from '../api/listings';
import { listingTabOf } from '../api/listing-tabs';
import { AccessListSection } from './access-list-section';
import { CalendarSection } from './calendar-section';
import { CalendarSyncSection } from './calendar-sync-section';
import { ListingUsersSection } from './listing-users-section';
import { LocksSection } from './locks-section';
import { ReviewsSection } from './reviews-section';
import { ShareSection } from './share-section';
import { StaysSection } from './stays-section';
import { RecordPage } from '@/components/record-page';
import { BelowTheFold } from '@/components/below-the-fold';
import classes from './listing-page.module.css';

/**
 * The listing's parts by what an operator comes for: the day's requests, stays and calendar
 * first; what guests see and how it is shared; reviews; which locks it opens and who helps. One
 * long page was 4,030 px on a laptop and 5,927 px on a phone. The tab is in the address (?tab=).
 */

function Details({ listing }: { listing: Listing }) {
  const rows: [string, string][] = [
    ['Category', listing.category?.name ?? 'None'],
    ['Address', listing.address || 'Not given'],
    ['Check-in', listing.checkInTime],
    ['Check-out', listing.checkOutTime],
    ['Stays', `${listing.minNights} to ${listing.maxNights} nights`],
    [
      'Price',
      listing.nightlyPrice === null
        ? 'On request'
        : describeNightlyPrice({ nightly: listing.nightlyPrice, currency: listing.currency }),
    ],
  ];
  return (
    <SectionCard
      title="Details"
      aside={
        <Button
          component={Link}
          to={paths.app.listingEdit.href(listing._id)}
          variant="default"
          size="xs"
          leftSection={<IconPencil size={14} aria-hidden="true" />}
        >
          Edit
        </Button>
      }
    >
      <Stack gap="md">
        {listing.images.length > 0 && (
          <SimpleGrid cols={{ base: 3, sm: 5 }} spacing="xs">
            {listing.images.slice(0, 5).map((image) => (
              <Image key={image._id} src={image.thumbUrl} alt={image.alt} radius="sm" h={72} fit="cover" />
            ))}
          </SimpleGrid>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="dl" m={0}>
          {rows.map(([term, value]) => (
            <Group key={term} gap="xs" wrap="nowrap" align="baseline">
              <Text component="dt" size="sm" c="dimmed" w={90}>
                {term}
              </Text>
              <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                {value}
              </Text>
            </Group>
          ))}
        </SimpleGrid>
        {listing.description && (
          <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
            {listing.description}
          </Text>
        )}
      </Stack>
    </SectionCard>
  );
}

function DeleteListing({ listing }: { listing: Listing }) {
  const [asking, setAsking] = useState(false);
  const remove = useDeleteListing();
  const navigate = useNavigate();
  return (
    <SectionCard
      danger
      title="Delete the listing"
      description="Its request page closes. Stays that have not ended must be cancelled first."
    >
      <Button
        color="red"
        variant="light"
        leftSection={<IconTrash size={16} aria-hidden="true" />}
        onClick={() => setAsking(true)}
      >
        Delete listing
      </Button>
      <ConfirmDialog
        opened={asking}
        onClose={() => setAsking(false)}
        title={`Delete ${listing.title}?`}
        confirmLabel="Delete listing"
        loading={remove.isPending}
        onConfirm={() =>
          remove.mutate(listing._id, {
            onSuccess: async () => {
              notifications.show({ color: 'teal', title: 'Listing deleted', message: listing.title });
              await navigate(paths.app.listings.href(), { replace: true });
            },
            onError: (error) => {
              setAsking(false);
              notifications.show({
                color: 'red',
                title: 'Could not delete the listing',
                message: errorMessage(error),
              });
            },
          })
        }
      >
        Its public page closes and it leaves your listings. Past stays stay in the change log.
      </ConfirmDialog>
    </SectionCard>
  );
}

/**
 * /app/listing/:listingId (admin): a listing in tabs: its requests, stays, calendar and calendar
 * sync; details and sharing; reviews; locks, access list and helpers.
 */
export function ListingPage() {
  const { listingId = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = listingTabOf(searchParams);
  return (
    <RecordPage
      query={useListing(listingId)}
      noun="listing"
      back={{ to: paths.app.listings.href(), label: 'All listings' }}
      skeleton={
        <>
          <Skeleton height={260} radius="lg" />
          <Skeleton height={200} radius="lg" />
        </>
      }
      header={(listing) => ({
        title: listing.title,
        description: `${listing.locks.map((l) => l.name).join(', ')}${listing.timeZone ? ` · ${listing.timeZone}` : ''}`,
        aside: (
          <Group gap={6}>
            <Badge color={listing.published ? 'teal' : 'gray'} variant="light">
              {listing.published ? 'Published' : 'Not published'}
            </Badge>
            {listing.autoAccept && (
              <Badge color="blue" variant="light">
                Accepts at once
              </Badge>
            )}
            {listing.pendingRequests > 0 && (
              <Badge color="yellow" variant="light">
                {listing.pendingRequests === 1
                  ? '1 request waits'
                  : `${listing.pendingRequests} requests wait`}
              </Badge>
            )}
            {/* What guests see, one click from every tab (its settings are under Details & sharing). */}
            {listing.published && (
              <Anchor
                href={paths.shareLock.request.href(listing._id)}
                target="_blank"
                rel="noopener"
                size="sm"
              >
                Request page <IconExternalLink size={14} aria-label="(opens in a new tab)" />
              </Anchor>
            )}
          </Group>
        ),
      })}
    >
      {(listing) => (
        <Tabs
          value={tab}
          onChange={(value) =>
            setSearchParams(value && value !== 'stays' ? { tab: value } : {}, { replace: true })
          }
          keepMounted={false}
        >
          <Tabs.List className={classes.tabList}>
            <Tabs.Tab value="stays" leftSection={<IconCalendarEvent size={16} aria-hidden="true" />}>
              Stays &amp; calendar
            </Tabs.Tab>
            <Tabs.Tab value="details" leftSection={<IconInfoCircle size={16} aria-hidden="true" />}>
              Details &amp; sharing
            </Tabs.Tab>
            <Tabs.Tab value="reviews" leftSection={<IconStar size={16} aria-hidden="true" />}>
              Reviews
            </Tabs.Tab>
            <Tabs.Tab value="access" leftSection={<IconLock size={16} aria-hidden="true" />}>
              Locks &amp; access
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="stays" pt="lg">
            <Stack gap="lg">
              <StaysSection listingId={listing._id} />
              <BelowTheFold>
                <CalendarSection listingId={listing._id} />
                <CalendarSyncSection listingId={listing._id} />
              </BelowTheFold>
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="details" pt="lg">
            <Stack gap="lg">
              <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
                <Details listing={listing} />
                <ShareSection key={listing.updatedAt} listing={listing} />
              </SimpleGrid>
              <DeleteListing listing={listing} />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="reviews" pt="lg">
            <ReviewsSection listingId={listing._id} />
          </Tabs.Panel>
          <Tabs.Panel value="access" pt="lg">
            <Stack gap="lg">
              <LocksSection listing={listing} />
              <AccessListSection listing={listing} />
              <ListingUsersSection listing={listing} />
            </Stack>
          </Tabs.Panel>
        </Tabs>
      )}
    </RecordPage>
  );
}
