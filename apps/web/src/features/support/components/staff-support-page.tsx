import {
  SUPPORT_TYPES,
  type SupportRequestDetail,
  type SupportStatus,
  type SupportType,
} from '@latchkey/shared';
import {
  Anchor,
  Badge,
  Button,
  CloseButton,
  Drawer,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconInbox, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { ListPagination } from '@/components/list-pagination';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useSession } from '@/lib/session';
import { useAnswerSupportRequest } from '../api/answer-support-request';
import { useStaffSupportImage } from '../api/get-staff-support-image';
import { useStaffSupportRequest } from '../api/get-staff-support-request';
import { INBOX_PAGE_SIZE, useSupportInbox } from '../api/get-support-inbox';
import { useUpdateSupportRequest } from '../api/update-support-request';
import { SupportImages } from './support-images';
import { STATUS_TEXT, typeLabel } from './support-text';
import { ReplyForm, SupportThread } from './support-thread';

/** One request in the drawer: who and where, its pictures and thread; take it, answer, close. */
function StaffRequest({ request }: { request: SupportRequestDetail }) {
  const { data: session } = useSession();
  const update = useUpdateSupportRequest();
  const answer = useAnswerSupportRequest();
  const mine = request.assignee?._id === session?.user._id;
  // The drawer shows the change itself (the badge, "Taken by"); only a failure gets a notice.
  const change = (patch: { assigneeId?: string | null; status?: SupportStatus }) =>
    update.mutate(
      { requestId: request._id, ...patch },
      {
        onError: (error) =>
          notifications.show({ color: 'red', title: 'Not saved', message: errorMessage(error) }),
      },
    );
  return (
    <Stack gap="md">
      <Group gap="xs" wrap="wrap">
        <Badge variant="light" color={STATUS_TEXT[request.status].color}>
          {STATUS_TEXT[request.status].label}
        </Badge>
        <Text size="sm" c="dimmed">
          {request.assignee ? `Taken by ${request.assignee.name}` : 'Nobody has taken it'}
        </Text>
      </Group>
      <Paper withBorder radius="md" p="sm">
        <Stack gap={4}>
          <Text size="sm">
            <Text span fw={600}>
              Portal:
            </Text>{' '}
            {request.portal.name}
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600}>
              From:
            </Text>{' '}
            {request.requester.name} ({request.requester.email})
          </Text>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            <Text span fw={600}>
              Screen:
            </Text>{' '}
            <Text span ff="monospace" size="sm">
              {request.navId || 'not known'}
            </Text>
          </Text>
          <Text size="sm">
            <Text span fw={600}>
              Filed:
            </Text>{' '}
            {formatDateTime(request.createdAt)}
          </Text>
        </Stack>
      </Paper>
      <Group gap="xs" wrap="wrap">
        {!mine && (
          <Button
            size="xs"
            variant="light"
            loading={update.isPending}
            onClick={() => change({ assigneeId: session?.user._id ?? null })}
          >
            Assign to me
          </Button>
        )}
        {request.status === 'closed' ? (
          <Button
            size="xs"
            variant="default"
            loading={update.isPending}
            onClick={() => change({ status: 'open' })}
          >
            Reopen
          </Button>
        ) : (
          <Button
            size="xs"
            variant="default"
            loading={update.isPending}
            onClick={() => change({ status: 'closed' })}
          >
            Close request
          </Button>
        )}
      </Group>
      {request.images.length > 0 && (
        <SupportImages requestId={request._id} images={request.images} useImage={useStaffSupportImage} />
      )}
      <SupportThread request={request} />
      <ReplyForm
        label="Answer"
        description="Shown in the app and mailed to the person."
        submitLabel="Send answer"
        pending={answer.isPending}
        send={(message) =>
          answer
            .mutateAsync({ requestId: request._id, message })
            .then(() =>
              notifications.show({ color: 'teal', message: `Answer sent to ${request.requester.email}` }),
            )
        }
      />
    </Stack>
  );
}

function RequestDrawer({ requestId, onClose }: { requestId: string | null; onClose: () => void }) {
  const query = useStaffSupportRequest(requestId);
  return (
    <Drawer
      opened={requestId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      closeButtonProps={{ 'aria-label': 'Close the request' }}
      title={query.data ? `${typeLabel(query.data.type)} · ${query.data.portal.name}` : 'Support request'}
    >
      {query.isPending ? (
        <Stack role="status" aria-label="Loading the request">
          <Skeleton height={24} />
          <Skeleton height={120} />
        </Stack>
      ) : query.error ? (
        <QueryError
          title="Could not load the request"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <StaffRequest request={query.data} />
      )}
    </Drawer>
  );
}

/** /app/platform/support: platform staff's inbox of every portal's requests. */
export function StaffSupportPage() {
  const [params, setParams] = useSearchParams();
  const portalId = params.get('portalId') ?? undefined;
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<SupportStatus | null>('open');
  const [type, setType] = useState<SupportType | null>(null);
  const [assignee, setAssignee] = useState<'me' | 'none' | null>(null);
  const [searchText, setSearchText] = useState('');
  const [search] = useDebouncedValue(searchText.trim(), 300);
  const [openId, setOpenId] = useState<string | null>(null);
  const query = useSupportInbox({
    page,
    status: status ?? undefined,
    type: type ?? undefined,
    assignee: assignee ?? undefined,
    portalId,
    search: search || undefined,
  });
  const reset = () => setPage(1);
  const portalName = query.data?.items.find((item) => item.portal._id === portalId)?.portal.name;

  return (
    <Stack gap="lg">
      <PageHeader
        title="Support inbox"
        description="Every portal's support requests. Answers are mailed to the person."
      />
      <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
        <Group gap="sm" mb="md" wrap="wrap" align="flex-end">
          <TextInput
            label="Search requests"
            placeholder="Text, person, email, portal"
            leftSection={<IconSearch size={16} aria-hidden="true" />}
            value={searchText}
            onChange={(event) => {
              setSearchText(event.currentTarget.value);
              reset();
            }}
            w={{ base: '100%', sm: 260 }}
          />
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            w={180}
            value={status}
            onChange={(value) => {
              setStatus(value as SupportStatus | null);
              reset();
            }}
            data={Object.entries(STATUS_TEXT).map(([value, { label }]) => ({ value, label }))}
          />
          <Select
            label="Type"
            placeholder="Any type"
            clearable
            w={180}
            value={type}
            onChange={(value) => {
              setType(value as SupportType | null);
              reset();
            }}
            data={SUPPORT_TYPES.map((value) => ({ value, label: typeLabel(value) }))}
          />
          <Select
            label="Assigned"
            placeholder="Anyone"
            clearable
            w={180}
            value={assignee}
            onChange={(value) => {
              setAssignee(value as 'me' | 'none' | null);
              reset();
            }}
            data={[
              { value: 'me', label: 'To me' },
              { value: 'none', label: 'To nobody' },
            ]}
          />
          {portalId && (
            <Badge
              size="lg"
              variant="light"
              rightSection={
                <CloseButton
                  size="xs"
                  aria-label="Show every portal"
                  onClick={() => {
                    params.delete('portalId');
                    setParams(params);
                    reset();
                  }}
                />
              }
            >
              Portal: {portalName ?? 'one portal'}
            </Badge>
          )}
        </Group>
        {query.isPending ? (
          <Stack gap="xs" role="status" aria-label="Loading the inbox">
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Stack>
        ) : query.error ? (
          <QueryError
            title="Could not load the inbox"
            error={query.error}
            onRetry={() => void query.refetch()}
          />
        ) : query.data.total === 0 ? (
          <EmptyList
            icon={<IconInbox size={28} aria-hidden="true" />}
            title="Nothing here"
            description="No request matches these filters."
          />
        ) : (
          <>
            <Table.ScrollContainer minWidth={760}>
              <Table verticalSpacing="sm" highlightOnHover>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Request</Table.Th>
                    <Table.Th>Portal</Table.Th>
                    <Table.Th>From</Table.Th>
                    <Table.Th>Status</Table.Th>
                    <Table.Th>Assignee</Table.Th>
                    <Table.Th>Last change</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data.items.map((request) => (
                    <Table.Tr key={request._id}>
                      <Table.Td maw={360}>
                        <Anchor
                          component="button"
                          type="button"
                          fw={600}
                          onClick={() => setOpenId(request._id)}
                          aria-haspopup="dialog"
                        >
                          {typeLabel(request.type)}
                        </Anchor>
                        <Text size="sm" c="dimmed" lineClamp={1} style={{ overflowWrap: 'anywhere' }}>
                          {request.description}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Anchor
                          component={Link}
                          to={paths.app.platformSupport.href({ portalId: request.portal._id })}
                          size="sm"
                          onClick={reset}
                        >
                          {request.portal.name}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{request.requester.name}</Text>
                        <Text size="xs" c="dimmed">
                          {request.requester.email}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={STATUS_TEXT[request.status].color}>
                          {STATUS_TEXT[request.status].label}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{request.assignee?.name ?? '—'}</Text>
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
              pageSize={INBOX_PAGE_SIZE}
              total={query.data.total}
              onChange={setPage}
              noun="requests"
            />
          </>
        )}
      </Paper>
      <RequestDrawer requestId={openId} onClose={() => setOpenId(null)} />
    </Stack>
  );
}
