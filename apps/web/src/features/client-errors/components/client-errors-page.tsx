import type { ClientErrorDetail, ClientErrorStatus } from '@latchkey/shared';
import {
  Anchor,
  Badge,
  Button,
  Code,
  Drawer,
  Group,
  Paper,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBug, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyList } from '@/components/empty-list';
import { ListPagination } from '@/components/list-pagination';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useClientError } from '../api/get-client-error';
import { CLIENT_ERRORS_PAGE_SIZE, useClientErrors } from '../api/get-client-errors';
import { useUpdateClientError } from '../api/update-client-error';

function StatusBadge({ status }: { status: ClientErrorStatus }) {
  return (
    <Badge variant="light" color={status === 'open' ? 'red' : 'teal'}>
      {status === 'open' ? 'Open' : 'Resolved'}
    </Badge>
  );
}

function ErrorDetail({ error }: { error: ClientErrorDetail }) {
  const update = useUpdateClientError();
  const next: ClientErrorStatus = error.status === 'open' ? 'resolved' : 'open';
  return (
    <Stack gap="md">
      <Group gap="xs">
        <StatusBadge status={error.status} />
        <Text size="sm">
          Seen {error.count} {error.count === 1 ? 'time' : 'times'}
        </Text>
      </Group>
      <Paper withBorder radius="md" p="sm">
        <Stack gap={4}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600}>
              Screen:
            </Text>{' '}
            {error.route || 'not known'}
          </Text>
          <Text size="sm">
            <Text span fw={600}>
              Build:
            </Text>{' '}
            {error.build || 'not known'}
          </Text>
          <Text size="sm">
            <Text span fw={600}>
              First seen:
            </Text>{' '}
            {formatDateTime(error.firstSeen)}
          </Text>
          <Text size="sm">
            <Text span fw={600}>
              Last seen:
            </Text>{' '}
            {formatDateTime(error.lastSeen)}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600}>
              Browser:
            </Text>{' '}
            {error.userAgent || 'not known'}
          </Text>
          {error.resolvedBy && error.resolvedAt && (
            <Text size="sm">
              Resolved by {error.resolvedBy.name} on {formatDateTime(error.resolvedAt)}
            </Text>
          )}
        </Stack>
      </Paper>
      <Stack gap={4}>
        <Text fw={600} size="sm">
          Stack
        </Text>
        <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {error.stack || 'No stack was reported.'}
        </Code>
      </Stack>
      <Group>
        <Button
          variant={next === 'resolved' ? 'filled' : 'default'}
          loading={update.isPending}
          onClick={() =>
            update.mutate(
              { id: error._id, status: next },
              {
                onError: (failure) =>
                  notifications.show({ color: 'red', title: 'Not saved', message: errorMessage(failure) }),
              },
            )
          }
        >
          {next === 'resolved' ? 'Mark resolved' : 'Open again'}
        </Button>
      </Group>
    </Stack>
  );
}

function ErrorDrawer({ id, onClose }: { id: string | null; onClose: () => void }) {
  const query = useClientError(id);
  return (
    <Drawer
      opened={id !== null}
      onClose={onClose}
      position="right"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close the error' }}
      title={query.data?.message ?? 'Error'}
    >
      {query.isPending ? (
        <Stack role="status" aria-label="Loading the error">
          <Skeleton height={24} />
          <Skeleton height={120} />
        </Stack>
      ) : query.error ? (
        <QueryError
          title="Could not load the error"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ErrorDetail error={query.data} />
      )}
    </Drawer>
  );
}

/** /app/platform/errors: the web app's uncaught errors, one row per fingerprint, for platform staff. */
export function ClientErrorsPage() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<ClientErrorStatus | 'all'>('open');
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText.trim(), 300);
  const [openId, setOpenId] = useState<string | null>(null);
  const query = useClientErrors({
    page,
    ...(status !== 'all' && { status }),
    ...(search && { search }),
  });

  let body;
  if (query.isPending) body = <TableSkeleton rows={5} label="Loading the errors" />;
  else if (query.error)
    body = (
      <QueryError
        title="Could not load the errors"
        error={query.error}
        onRetry={() => void query.refetch()}
      />
    );
  else if (query.data.items.length === 0)
    body = (
      <EmptyList
        icon={<IconBug aria-hidden="true" />}
        title={search ? 'No error matches' : status === 'open' ? 'No open errors' : 'No errors'}
        description="Uncaught errors of the web app show up here, one row per error with how often it was seen."
      />
    );
  else
    body = (
      <Stack gap="sm">
        <Table.ScrollContainer minWidth={640} type="native">
          <Table striped highlightOnHover aria-label="Client errors">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Error</Table.Th>
                <Table.Th>Screen</Table.Th>
                <Table.Th>Times</Table.Th>
                <Table.Th>Last seen</Table.Th>
                <Table.Th>Status</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {query.data.items.map((item) => (
                <Table.Tr key={item._id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    <Anchor
                      component="button"
                      type="button"
                      onClick={() => setOpenId(item._id)}
                      ta="left"
                      c="var(--mantine-color-text)"
                      fw={600}
                    >
                      {item.message}
                    </Anchor>
                    {item.topFrame && (
                      <Text size="xs" ff="monospace">
                        {item.topFrame}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" ff="monospace">
                      {item.route}
                    </Text>
                  </Table.Td>
                  <Table.Td>{item.count}</Table.Td>
                  <Table.Td>{formatDateTime(item.lastSeen)}</Table.Td>
                  <Table.Td>
                    <StatusBadge status={item.status} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <ListPagination
          page={page}
          total={query.data.total}
          pageSize={CLIENT_ERRORS_PAGE_SIZE}
          noun="errors"
          onChange={setPage}
        />
      </Stack>
    );

  return (
    <Stack gap="lg">
      <PageHeader
        title="Client errors"
        description="What broke in people's browsers: each error once, with how often and when it was seen."
      />
      <Group gap="sm" wrap="wrap">
        <SegmentedControl
          aria-label="Which errors"
          value={status}
          onChange={(value) => {
            setStatus(value as ClientErrorStatus | 'all');
            setPage(1);
          }}
          data={[
            { value: 'open', label: 'Open' },
            { value: 'resolved', label: 'Resolved' },
            { value: 'all', label: 'All' },
          ]}
        />
        <TextInput
          aria-label="Search the errors"
          placeholder="Message, code or screen"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={searchText}
          onChange={(event) => {
            setSearchText(event.currentTarget.value);
            setPage(1);
          }}
        />
      </Group>
      {body}
      <ErrorDrawer id={openId} onClose={() => setOpenId(null)} />
    </Stack>
  );
}
