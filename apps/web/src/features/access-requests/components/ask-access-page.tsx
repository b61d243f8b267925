import { ACCESS_REQUEST_NOTE_MAX } from '@latchkey/shared';
import { Button, Group, Paper, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { describeSchedule } from '@/components/schedule/describe-schedule';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useAnswerAccessRequest } from '../api/answer-access-request';
import { useAskForAccess } from '../api/ask-for-access';
import { useAccessRequests } from '../api/get-access-requests';
import { useRequestableLocks } from '../api/get-requestable-locks';
import { RequestStatusBadge } from './request-status';

/** The form: a lock one does not reach yet, and a note for the admin. */
function AskForm() {
  const locks = useRequestableLocks();
  const ask = useAskForAccess();
  const [deviceId, setDeviceId] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);

  if (locks.isPending) return <TableSkeleton rows={2} label="Loading the locks" />;
  if (locks.error)
    return (
      <QueryError title="Could not load the locks" error={locks.error} onRetry={() => void locks.refetch()} />
    );
  // Locks one does not open come first. One already opened may still be asked for (a wider schedule,
  // docs/decisions.md "accessRequest"), so it stays in the list, last, saying so.
  const options = [
    ...locks.data.filter((lock) => !lock.hasAccess),
    ...locks.data.filter((lock) => lock.hasAccess),
  ].map((lock) => ({
    value: lock._id,
    label: lock.waiting
      ? `${lock.name} (asked)`
      : lock.hasAccess
        ? `${lock.name} (you open it already: ask for more time)`
        : lock.name,
    disabled: lock.waiting,
  }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!deviceId) {
      setError('Choose a lock');
      return;
    }
    setError(null);
    ask.mutate(
      { deviceId, note: note.trim() },
      {
        onSuccess: (request) => {
          notifications.show({
            color: 'teal',
            message: `Asked for ${request.device.name}. An admin will answer.`,
          });
          setDeviceId(null);
          setNote('');
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  };

  return (
    <Paper
      withBorder
      radius="lg"
      p="md"
      component="form"
      onSubmit={submit}
      aria-label="Ask for access"
      noValidate
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          Ask for access
        </Title>
        <Select
          label="Lock"
          placeholder="Choose a lock"
          data={options}
          value={deviceId}
          onChange={setDeviceId}
          searchable
          nothingFoundMessage="No lock of that name"
          error={error}
          required
        />
        <Textarea
          label="Note for the admin"
          description="Why and when you need it (optional)"
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          maxLength={ACCESS_REQUEST_NOTE_MAX}
          autosize
          minRows={2}
        />
        <Group>
          <Button type="submit" loading={ask.isPending}>
            Send request
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/** The person's own requests and their answers. */
function MyRequests() {
  const requests = useAccessRequests({ screen: 'mine' });
  const answer = useAnswerAccessRequest();
  if (requests.isPending) return <TableSkeleton rows={2} label="Loading your requests" />;
  if (requests.error)
    return (
      <QueryError
        title="Could not load your requests"
        error={requests.error}
        onRetry={() => void requests.refetch()}
      />
    );
  if (requests.data.items.length === 0)
    return (
      <EmptyList
        icon={<IconKey aria-hidden="true" />}
        title="No requests yet"
        description="Ask for a lock above; you will see the admin's answer here."
      />
    );
  return (
    <Stack component="ul" aria-label="Your requests" gap="sm" p={0} m={0}>
      {requests.data.items.map((request) => (
        <Paper key={request._id} withBorder radius="md" p="sm" component="li" style={{ listStyle: 'none' }}>
          <Stack gap={4}>
            <Group justify="space-between" gap="xs">
              <Text fw={700}>{request.device.name}</Text>
              <RequestStatusBadge status={request.status} />
            </Group>
            <Text size="sm">Asked {formatDateTime(request.createdAt)}</Text>
            {request.note && <Text size="sm">Your note: {request.note}</Text>}
            {request.status === 'granted' && (
              <Text size="sm">Granted: {describeSchedule(request.schedule)}</Text>
            )}
            {request.status === 'declined' && <Text size="sm">Reason: {request.reason}</Text>}
            {request.status === 'waiting' && (
              <Group>
                <Button
                  size="xs"
                  variant="default"
                  loading={answer.isPending && answer.variables?.requestId === request._id}
                  onClick={() =>
                    answer.mutate(
                      { requestId: request._id, action: 'withdraw' },
                      {
                        onError: (failure) =>
                          notifications.show({
                            color: 'red',
                            title: 'Not withdrawn',
                            message: errorMessage(failure),
                          }),
                      },
                    )
                  }
                >
                  Withdraw
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** /user/access: ask an admin for a lock, and see the answers. */
export function AskAccessPage() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="Access requests"
        description="Ask your portal's admins for a lock you cannot open yet."
      />
      <AskForm />
      <Stack gap="sm">
        <Title order={2} size="h4">
          Your requests
        </Title>
        <MyRequests />
      </Stack>
    </Stack>
  );
}
