import type { Listing } from '@latchkey/shared';
import { Badge, Button, Group, Image, SimpleGrid, Skeleton, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useDeleteListing, useListing } from '../api/listings';
import { AccessListSection } from './access-list-section';
import { CalendarSection } from './calendar-section';
import { CalendarSyncSection } from './calendar-sync-section';
import { ListingUsersSection } from './listing-users-section';
import { LocksSection } from './locks-section';
import { ReviewsSection } from './reviews-section';
import { ShareSection } from './share-section';
import { StaysSection } from './stays-section';
import { RecordPage } from '@/components/record-page';

function Details({ listing }: { listing: Listing }) {
  const rows: [string, string][] = [
    ['Category', listing.category?.name ?? 'None'],
    ['Address', listing.address || 'Not given'],
    ['Check-in', listing.checkInTime],
    ['Check-out', listing.checkOutTime],
    ['Stays', `${listing.minNights} to ${listing.maxNights} nights`],
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

/** /app/listing/:listingId (admin): a listing, its requests and stays, calendar, sharing, calendar sync, reviews, locks and access list. */
export function ListingPage() {
  const { listingId = '' } = useParams();
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
          </Group>
        ),
      })}
    >
      {(listing) => (
        <>
          <StaysSection listingId={listing._id} />
          <CalendarSection listingId={listing._id} />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Details listing={listing} />
            <ShareSection key={listing.updatedAt} listing={listing} />
          </SimpleGrid>
          <CalendarSyncSection listingId={listing._id} />
          <ReviewsSection listingId={listing._id} />
          <LocksSection listing={listing} />
          <AccessListSection listing={listing} />
          <ListingUsersSection listing={listing} />
          <DeleteListing listing={listing} />
        </>
      )}
    </RecordPage>
  );
}
