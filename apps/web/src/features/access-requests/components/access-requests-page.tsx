import {
  ACCESS_REQUEST_NOTE_MAX,
  type AccessRequest,
  type AccessRequestStatus,
  type MemberDevice,
} from '@latchkey/shared';
import { Button, Group, Paper, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconKey } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyList } from '@/components/empty-list';
import { FormModal } from '@/components/form-modal';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { groupNames } from '@/components/access/group-names';
import { describeSchedule } from '@/components/schedule/describe-schedule';
import { ScheduleDialog } from '@/components/schedule/schedule-dialog';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useMemberDevices } from '@/features/members/api/get-member-devices';
import { useAnswerAccessRequest } from '../api/answer-access-request';
import { useAccessRequests } from '../api/get-access-requests';
import { RequestStatusBadge } from './request-status';

function DeclineDialog({ request, onClose }: { request: AccessRequest | null; onClose: () => void }) {
  const answer = useAnswerAccessRequest();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!request) return;
    if (!reason.trim()) {
      setError('Say why, for the person');
      return;
    }
    answer.mutate(
      { requestId: request._id, action: 'decline', reason: reason.trim() },
      {
        onSuccess: () => {
          notifications.show({
            color: 'teal',
            message: `Declined; ${request.requester.name} sees your reason`,
          });
          setReason('');
          setError(null);
          onClose();
        },
        onError: (failure) => setError(errorMessage(failure)),
      },
    );
  };
  return (
    <FormModal opened={request !== null} onClose={onClose} title="Decline the request">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            {request?.requester.name} asked for {request?.device.name}.
          </Text>
          <Textarea
            label="Reason"
            description="The person reads it with the answer"
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            maxLength={ACCESS_REQUEST_NOTE_MAX}
            error={error}
            required
            autosize
            minRows={2}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" color="red" loading={answer.isPending}>
              Decline
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}

/** How a person reaches a lock, in words: "through Residents", "directly", "through A and directly". */
function waysOf(via: MemberDevice['via']): string {
  const ways = [
    ...(via.groups.length > 0 ? [`through ${groupNames(via)}`] : []),
    ...(via.direct ? ['directly'] : []),
  ];
  return ways.join(' and ');
}

/**
 * The grant dialog's words: who asks, and whether they open the lock already (through a group or
 * directly, on which schedule), for one may ask for a lock one opens to get more time.
 */
function GrantSubtitle({ request }: { request: AccessRequest }) {
  const devices = useMemberDevices(request.requester._id);
  const reached = devices.data?.find((device) => device._id === request.device._id);
  // Inside the dialog's subtitle paragraph: phrasing content only.
  return (
    <>
      {request.requester.name}: when may they open it? (empty: at any time)
      {reached && (
        <Text span display="block" mt={4} size="sm" c="orange.9" role="note">
          They open {request.device.name} already {waysOf(reached.via)},{' '}
          {reached.schedule ? describeSchedule(reached.schedule) : 'at any time'}. Granting gives them direct
          access on the schedule below.
        </Text>
      )}
    </>
  );
}

/** /app/access-requests: the portal's requests, waiting ones first; grant with a schedule or decline. */
export function AccessRequestsPage() {
  const [status, setStatus] = useState<AccessRequestStatus | 'all'>('waiting');
  const requests = useAccessRequests({ screen: 'admin', ...(status !== 'all' && { status }) });
  const answer = useAnswerAccessRequest();
  const [granting, setGranting] = useState<AccessRequest | null>(null);
  const [declining, setDeclining] = useState<AccessRequest | null>(null);

  let body;
  if (requests.isPending) body = <TableSkeleton rows={3} label="Loading the requests" />;
  else if (requests.error)
    body = (
      <QueryError
        title="Could not load the requests"
        error={requests.error}
        onRetry={() => void requests.refetch()}
      />
    );
  else if (requests.data.items.length === 0)
    body = (
      <EmptyList
        icon={<IconKey aria-hidden="true" />}
        title={status === 'waiting' ? 'Nobody is waiting' : 'No requests'}
        description="People ask for a lock from their own page; their requests show up here."
      />
    );
  else
    body = (
      <Stack component="ul" aria-label="Access requests" gap="sm" p={0} m={0}>
        {requests.data.items.map((request) => (
          <Paper key={request._id} withBorder radius="md" p="sm" component="li" style={{ listStyle: 'none' }}>
            <Stack gap={4}>
              <Group justify="space-between" gap="xs">
                <Text fw={700}>
                  {request.requester.name} asks for {request.device.name}
                </Text>
                <RequestStatusBadge status={request.status} />
              </Group>
              <Text size="sm">
                {request.requester.email} · asked {formatDateTime(request.createdAt)}
              </Text>
              {request.note && <Text size="sm">Note: {request.note}</Text>}
              {request.status === 'granted' && (
                <Text size="sm">
                  Granted by {request.answeredBy?.name}: {describeSchedule(request.schedule)}
                </Text>
              )}
              {request.status === 'declined' && (
                <Text size="sm">
                  Declined by {request.answeredBy?.name}: {request.reason}
                </Text>
              )}
              {request.status === 'waiting' && (
                <Group gap="xs">
                  <Button size="xs" onClick={() => setGranting(request)}>
                    Grant…
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setDeclining(request)}>
                    Decline…
                  </Button>
                </Group>
              )}
            </Stack>
          </Paper>
        ))}
      </Stack>
    );

  return (
    <Stack gap="lg">
      <PageHeader
        title="Access requests"
        description="People of the portal asking for a lock. Granting gives them the lock with the schedule you choose."
      />
      <SegmentedControl
        aria-label="Which requests"
        value={status}
        onChange={(value) => setStatus(value as AccessRequestStatus | 'all')}
        data={[
          { value: 'waiting', label: 'Waiting' },
          { value: 'granted', label: 'Granted' },
          { value: 'declined', label: 'Declined' },
          { value: 'all', label: 'All' },
        ]}
        style={{ alignSelf: 'flex-start' }}
      />
      {body}
      <ScheduleDialog
        opened={granting !== null}
        onClose={() => setGranting(null)}
        title={`Grant ${granting?.device.name ?? ''}`}
        subtitle={granting ? <GrantSubtitle request={granting} /> : undefined}
        schedule={granting ? null : undefined}
        submitLabel="Grant access"
        onSave={async (schedule) => {
          if (!granting) return;
          try {
            await answer.mutateAsync({ requestId: granting._id, action: 'grant', schedule });
            notifications.show({
              color: 'teal',
              message: `${granting.requester.name} may now open ${granting.device.name}`,
            });
            setGranting(null);
          } catch (failure) {
            notifications.show({ color: 'red', title: 'Not granted', message: errorMessage(failure) });
          }
        }}
      />
      <DeclineDialog request={declining} onClose={() => setDeclining(null)} />
    </Stack>
  );
}
