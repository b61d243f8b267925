import { Anchor, Badge, Group, Paper, Stack, Table, Tabs, Text } from '@mantine/core';
import { IconBuildingSkyscraper, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyList, NoMatchList } from '@/components/empty-list';
import { ListPagination } from '@/components/list-pagination';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
import { SortableTh } from '@/components/sortable-th';
import { TableSkeleton } from '@/components/table-skeleton';
import { paths } from '@/config/paths';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useListParams, type ListParams } from '@/lib/use-list-params';
import { useAdminUsers } from '../api/get-admin-users';
import { usePlatformPortals } from '../api/get-platform-portals';
import { StandingBadge } from './standing-badge';

const PAGE_SIZE = 20;
type Tab = 'portals' | 'people';

/**
 * /app/platform (platform staff): the console's home. One search finds portals (by their name or
 * their owner's email) and people (by email or name) across every portal; each portal opens its
 * detail, where staff can act in it.
 */
export function PlatformHomePage() {
  const list = useListParams({
    sortFields: ['name', 'createdAt', 'ownerEmail', 'email'] as const,
    defaultSort: 'name',
    pageSize: PAGE_SIZE,
  });
  const tab: Tab = list.param('tab') === 'people' ? 'people' : 'portals';

  return (
    <Stack gap="lg">
      <PageHeader
        title="Platform console"
        description="Find a customer's portal by its name or its owner's email, or a person by their email or name, across every portal."
      />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <SearchInput
            label="Search portals and people"
            placeholder="Portal name, owner email, person's email or name"
            value={list.search}
            onSearch={list.setSearch}
          />
          <Tabs
            value={tab}
            onChange={(value) => list.setParams({ tab: value === 'people' ? 'people' : null, sort: null })}
          >
            <Tabs.List>
              <Tabs.Tab value="portals" leftSection={<IconBuildingSkyscraper size={16} aria-hidden="true" />}>
                Portals
              </Tabs.Tab>
              <Tabs.Tab value="people" leftSection={<IconUsers size={16} aria-hidden="true" />}>
                People
              </Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="portals" pt="md">
              {tab === 'portals' && <PortalResults list={list} />}
            </Tabs.Panel>
            <Tabs.Panel value="people" pt="md">
              {tab === 'people' && <PeopleResults list={list} />}
            </Tabs.Panel>
          </Tabs>
        </Stack>
      </Paper>
    </Stack>
  );
}

type ConsoleList = ListParams<'name' | 'createdAt' | 'ownerEmail' | 'email'>;

function PortalResults({ list }: { list: ConsoleList }) {
  const sortBy = list.sortBy === 'email' ? 'name' : list.sortBy;
  const portals = usePlatformPortals({ ...list.query, sortBy });
  if (portals.isPending) return <TableSkeleton label="Loading portals" />;
  if (portals.error)
    return (
      <QueryError
        title="Could not load the portals"
        error={portals.error}
        onRetry={() => void portals.refetch()}
      />
    );
  if (portals.data.total === 0 && !list.search)
    return (
      <EmptyList
        icon={<IconBuildingSkyscraper size={28} aria-hidden="true" />}
        title="No portals yet"
        description="Portals appear here once someone signs up."
      />
    );
  if (portals.data.items.length === 0)
    return (
      <NoMatchList
        title="No portal matches"
        description="Try part of the portal's name or of its owner's email."
        showAll="Show every portal"
        onShowAll={() => list.setParams({ search: null })}
      />
    );
  return (
    <Stack gap="md" style={{ opacity: portals.isPlaceholderData ? 0.6 : 1 }}>
      <Table.ScrollContainer minWidth={820}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <SortableTh {...list.sortProps('name')}>Portal</SortableTh>
              <SortableTh {...list.sortProps('ownerEmail')}>Owner</SortableTh>
              <Table.Th>Plan</Table.Th>
              <Table.Th ta="right">Locks</Table.Th>
              <Table.Th ta="right">People</Table.Th>
              <Table.Th>Last activity</Table.Th>
              <Table.Th>Reseller</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {portals.data.items.map((portal) => (
              <Table.Tr key={portal._id}>
                <Table.Td>
                  <Anchor component={Link} to={paths.app.platformPortal.href(portal._id)} fw={600}>
                    {portal.name}
                  </Anchor>
                </Table.Td>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{portal.owner.email}</Table.Td>
                <Table.Td>
                  <StandingBadge portal={portal} />
                </Table.Td>
                <Table.Td ta="right">{portal.lockCount}</Table.Td>
                <Table.Td ta="right">{portal.peopleCount}</Table.Td>
                <Table.Td>
                  {portal.lastActivityAt ? (
                    <time dateTime={portal.lastActivityAt} title={formatDateTime(portal.lastActivityAt)}>
                      {formatRelative(portal.lastActivityAt)}
                    </time>
                  ) : (
                    <Text size="sm" c="dimmed" component="span">
                      None yet
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>{portal.reseller?.companyName ?? '—'}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPagination
        page={list.page}
        pageSize={list.pageSize}
        total={portals.data.total}
        onChange={list.setPage}
        noun={portals.data.total === 1 ? 'portal' : 'portals'}
      />
    </Stack>
  );
}

function PeopleResults({ list }: { list: ConsoleList }) {
  const sortBy = list.sortBy === 'createdAt' ? 'createdAt' : list.sortBy === 'name' ? 'name' : 'email';
  const people = useAdminUsers({ ...list.query, sortBy });
  if (people.isPending) return <TableSkeleton label="Loading people" />;
  if (people.error)
    return (
      <QueryError
        title="Could not load the people"
        error={people.error}
        onRetry={() => void people.refetch()}
      />
    );
  if (people.data.items.length === 0)
    return (
      <NoMatchList
        title="No one matches"
        description="Try part of the person's email or name."
        showAll="Show everyone"
        onShowAll={() => list.setParams({ search: null })}
      />
    );
  return (
    <Stack gap="md" style={{ opacity: people.isPlaceholderData ? 0.6 : 1 }}>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <SortableTh {...list.sortProps('email')}>Email</SortableTh>
              <SortableTh {...list.sortProps('name')}>Name</SortableTh>
              <Table.Th>Portals</Table.Th>
              <SortableTh {...list.sortProps('createdAt')}>Since</SortableTh>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {people.data.items.map((person) => (
              <Table.Tr key={person._id}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <Group gap={6}>
                    <Text size="sm">{person.email}</Text>
                    {person.platformRole === 'superAdmin' && (
                      <Badge size="sm" variant="light" color="grape">
                        Staff
                      </Badge>
                    )}
                    {person.status !== 'active' && (
                      <Badge size="sm" variant="light" color="red">
                        {person.status}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>{`${person.firstName} ${person.lastName}`.trim() || '—'}</Table.Td>
                <Table.Td>
                  {person.portals.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      No portal
                    </Text>
                  ) : (
                    <Stack gap={2}>
                      {person.portals.map((portal) => (
                        <Text size="sm" key={portal._id}>
                          <Anchor component={Link} to={paths.app.platformPortal.href(portal._id)}>
                            {portal.name}
                          </Anchor>{' '}
                          <Text span size="xs" c="dimmed">
                            {portal.owner ? 'owner' : portal.role === 'admin' ? 'admin' : 'basic user'}
                            {portal.status !== 'active' ? `, ${portal.status}` : ''}
                          </Text>
                        </Text>
                      ))}
                    </Stack>
                  )}
                </Table.Td>
                <Table.Td>
                  <time dateTime={person.createdAt} title={formatDateTime(person.createdAt)}>
                    {formatRelative(person.createdAt)}
                  </time>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPagination
        page={list.page}
        pageSize={list.pageSize}
        total={people.data.total}
        onChange={list.setPage}
        noun={people.data.total === 1 ? 'person' : 'people'}
      />
    </Stack>
  );
}
