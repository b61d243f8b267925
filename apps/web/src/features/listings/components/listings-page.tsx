import type { ListingSummary } from '@latchkey/shared';
import { Anchor, Badge, Button, Group, Image, Stack, Table, Text, ThemeIcon } from '@mantine/core';
import { IconHome, IconPhoto, IconPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { ListFilters } from '@/components/list-filters';
import { SortableTh } from '@/components/sortable-th';
import { paths } from '@/config/paths';
import { formatCalendarDate } from '@/lib/format';
import { useListParams } from '@/lib/use-list-params';
import { useListings } from '../api/listings';
import { ListPage } from '@/components/list-page';

const SORT_FIELDS = ['title', 'createdAt'] as const;
type ListingSort = (typeof SORT_FIELDS)[number];

const SHOWN_OPTIONS = [
  { value: 'true', label: 'Published' },
  { value: 'false', label: 'Not published' },
];

function Cover({ listing }: { listing: ListingSummary }) {
  if (listing.cover) {
    return <Image src={listing.cover.thumbUrl} alt="" w={56} h={42} radius="sm" fit="cover" />;
  }
  return (
    <ThemeIcon variant="light" color="gray" size={42} radius="sm" aria-hidden="true">
      <IconPhoto size={20} />
    </ThemeIcon>
  );
}

function ListingRow({ listing }: { listing: ListingSummary }) {
  return (
    <Table.Tr>
      <Table.Td>
        <Group gap="sm" wrap="nowrap">
          <Cover listing={listing} />
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Anchor component={Link} to={paths.app.listing.href(listing._id)} fw={600} size="sm">
              {listing.title}
            </Anchor>
            <Text size="xs" c="dimmed">
              {listing.category?.name ?? 'No category'} ·{' '}
              {listing.locks === 1 ? '1 lock' : `${listing.locks} locks`}
            </Text>
          </Stack>
        </Group>
      </Table.Td>
      <Table.Td visibleFrom="sm">
        <Text size="sm">{listing.nextArrival ? formatCalendarDate(listing.nextArrival) : '—'}</Text>
      </Table.Td>
      <Table.Td>
        <Group gap={6}>
          <Badge color={listing.published ? 'teal' : 'gray'} variant="light">
            {listing.published ? 'Published' : 'Not published'}
          </Badge>
          {listing.pendingRequests > 0 && (
            <Badge color="yellow" variant="light">
              {listing.pendingRequests === 1 ? '1 request' : `${listing.pendingRequests} requests`}
            </Badge>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/** /app/listing (admin): the portal's listings, their next arrival and waiting requests. */
export function ListingsPage() {
  const list = useListParams<ListingSort>({ sortFields: SORT_FIELDS, defaultSort: 'title' });
  const shown = list.param('shown');
  const filter = shown === 'true' || shown === 'false' ? shown : null;
  const params = {
    ...list.query,
    ...(filter ? { filterBy: 'published' as const, filterValue: filter } : {}),
  };
  const listings = useListings(params);

  const newButton = (
    <Button
      component={Link}
      to={paths.app.listingEdit.href('new')}
      leftSection={<IconPlus size={18} aria-hidden="true" />}
    >
      New listing
    </Button>
  );

  return (
    <ListPage
      title="Listings"
      description="Locks you offer for stays: guests request dates on a public page, and their code reaches the lock before they are told."
      actions={newButton}
      filters={
        <ListFilters
          list={list}
          searchLabel="Search listings"
          searchPlaceholder="Listing title"
          filter={{
            param: 'shown',
            label: 'Shown',
            placeholder: 'Published or not',
            data: SHOWN_OPTIONS,
            value: filter,
          }}
        />
      }
      query={listings}
      loadingLabel="Loading listings"
      errorTitle="Could not load the listings"
      filtered={Boolean(list.search || filter)}
      empty={
        <EmptyList
          invite
          icon={<IconHome size={28} aria-hidden="true" />}
          title="No listings yet"
          description="A listing offers one or more locks (a flat's door and the building's entrance) for stays, with a public request page."
          action={newButton}
        />
      }
      noMatch={
        <NoMatchList
          title="No listings match"
          description="Try another title, or show published and unpublished ones."
          showAll="Show all listings"
          onShowAll={() => list.setParams({ shown: null, search: null })}
        />
      }
      list={list}
      noun={['listing', 'listings']}
      table={(items) => (
        <>
          <Table.Thead>
            <Table.Tr>
              <SortableTh {...list.sortProps('title')}>Listing</SortableTh>
              <Table.Th scope="col" visibleFrom="sm">
                Next arrival
              </Table.Th>
              <Table.Th scope="col">State</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((listing) => (
              <ListingRow key={listing._id} listing={listing} />
            ))}
          </Table.Tbody>
        </>
      )}
    />
  );
}
