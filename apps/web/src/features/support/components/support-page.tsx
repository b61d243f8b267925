import { SUPPORT_TYPES, type SupportStatus } from '@latchkey/shared';
import {
  Anchor,
  Badge,
  Card,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  ThemeIcon,
} from '@mantine/core';
import {
  IconCreditCard,
  IconDots,
  IconKey,
  IconLifebuoy,
  IconLock,
  IconUserCircle,
  type Icon,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { ListPagination } from '@/components/list-pagination';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { formatDateTime } from '@/lib/format';
import { useSession } from '@/lib/session';
import { SUPPORT_PAGE_SIZE, useSupportRequests } from '../api/get-support-requests';
import { navIdFrom, STATUS_TEXT, TYPE_HINTS, typeLabel } from './support-text';

const TYPE_ICONS: Record<(typeof SUPPORT_TYPES)[number], Icon> = {
  lock: IconLock,
  access: IconKey,
  billing: IconCreditCard,
  account: IconUserCircle,
  other: IconDots,
};

/** "New request": one card per type, each opening its form with the screen the person came from. */
function NewRequest({ from }: { from: string }) {
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'lg' }}
      component="section"
      aria-labelledby="new-request"
    >
      <Text component="h2" fw={700} fz="lg" id="new-request" mb={4}>
        New request
      </Text>
      <Text size="sm" c="dimmed" mb="md">
        What is it about? Choose one; you can add a description and pictures next.
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 5 }} spacing="sm">
        {SUPPORT_TYPES.map((type) => {
          const TypeIcon = TYPE_ICONS[type];
          return (
            <Card
              key={type}
              component={Link}
              to={paths.app.supportType.href(type, { from: from || undefined })}
              withBorder
              radius="md"
              padding="md"
            >
              <Group gap="sm" wrap="nowrap" align="flex-start">
                <ThemeIcon variant="light" size="lg" radius="md" aria-hidden="true">
                  <TypeIcon size={20} />
                </ThemeIcon>
                <Stack gap={2}>
                  <Text fw={600}>{typeLabel(type)}</Text>
                  <Text size="xs">{TYPE_HINTS[type]}</Text>
                </Stack>
              </Group>
            </Card>
          );
        })}
      </SimpleGrid>
    </Paper>
  );
}

/** /app/support: the person's requests (a portal admin: the portal's) and "New request". */
export function SupportPage() {
  const [search] = useSearchParams();
  const from = navIdFrom(search.get('from'));
  const { data: session } = useSession();
  const isAdmin = session?.roles.includes('admin') ?? false;
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<SupportStatus | null>(null);
  const [scope, setScope] = useState<'portal' | 'mine'>('portal');
  const query = useSupportRequests({
    page,
    status: status ?? undefined,
    mine: isAdmin && scope === 'mine',
  });
  const showRequester = isAdmin && scope === 'portal';

  return (
    <Stack gap="lg">
      <PageHeader
        title="Help & support"
        description="Tell us what went wrong: Latchkey support answers here and by email."
      />
      <NewRequest from={from} />
      <Paper
        withBorder
        radius="lg"
        p={{ base: 'md', sm: 'lg' }}
        component="section"
        aria-labelledby="requests"
      >
        <Group justify="space-between" gap="sm" mb="md" wrap="wrap">
          <Text component="h2" fw={700} fz="lg" id="requests">
            {isAdmin && scope === 'portal' ? "Your portal's requests" : 'Your requests'}
          </Text>
          <Group gap="sm" wrap="wrap">
            {isAdmin && (
              <SegmentedControl
                aria-label="Whose requests"
                size="xs"
                value={scope}
                onChange={(value) => {
                  setScope(value as 'portal' | 'mine');
                  setPage(1);
                }}
                data={[
                  { value: 'portal', label: 'Whole portal' },
                  { value: 'mine', label: 'Mine' },
                ]}
              />
            )}
            <Select
              aria-label="Status"
              size="xs"
              w={180}
              placeholder="Any status"
              clearable
              value={status}
              onChange={(value) => {
                setStatus(value as SupportStatus | null);
                setPage(1);
              }}
              data={Object.entries(STATUS_TEXT).map(([value, { label }]) => ({ value, label }))}
            />
          </Group>
        </Group>
        {query.isPending ? (
          <Stack gap="xs" role="status" aria-label="Loading the requests">
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        ) : query.error ? (
          <QueryError
            title="Could not load the requests"
            error={query.error}
            onRetry={() => void query.refetch()}
          />
        ) : query.data.total === 0 ? (
          <EmptyList
            icon={<IconLifebuoy size={28} aria-hidden="true" />}
            title={status ? 'No requests with this status' : 'No requests yet'}
            description="When you file a request, it shows here with the answers."
          />
        ) : (
          <>
            <Table.ScrollContainer minWidth={560}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Request</Table.Th>
                    {showRequester && <Table.Th>From</Table.Th>}
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Last change</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data.items.map((request) => (
                    <Table.Tr key={request._id}>
                      <Table.Td maw={420}>
                        <Anchor component={Link} to={paths.app.supportRequest.href(request._id)} fw={600}>
                          {typeLabel(request.type)}
                        </Anchor>
                        <Text size="sm" c="dimmed" lineClamp={1} style={{ overflowWrap: 'anywhere' }}>
                          {request.description}
                        </Text>
                      </Table.Td>
                      {showRequester && <Table.Td>{request.requester.name}</Table.Td>}
                      <Table.Td>
                        <Badge variant="light" color={STATUS_TEXT[request.status].color}>
                          {STATUS_TEXT[request.status].label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{formatDateTime(request.updatedAt)}</Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPagination
              page={page}
              pageSize={SUPPORT_PAGE_SIZE}
              total={query.data.total}
              onChange={setPage}
              noun="requests"
            />
          </>
        )}
      </Paper>
    </Stack>
  );
}
