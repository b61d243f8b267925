import { formatCalendarRange, nightsBetween, type WaitingRequest } from '@latchkey/shared';
import { Alert, Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useStayAction } from '@/features/listings/api/stays';
import { useWaitingRequests, waitingRequestsKey } from '../api/get-waiting-requests';

/** One waiting request: who, where, when, and the two answers (declining asks for a reason there). */
function RequestRow({ request }: { request: WaitingRequest }) {
  const queryClient = useQueryClient();
  const approve = useStayAction(request.listingId, request._id);
  const nights = nightsBetween(request.startDate, request.endDate);
  const href = paths.app.stay.href(request.listingId, request._id);
  return (
    <Stack
      component="li"
      gap={6}
      py="sm"
      style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}
    >
      <Group justify="space-between" wrap="wrap" gap="sm" align="flex-start">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 220px' }}>
          <Anchor component={Link} to={href} fw={600} size="sm">
            {request.guestName}
          </Anchor>
          <Text size="sm" c="dimmed">
            {`${request.listingTitle} · ${formatCalendarRange(request.startDate, request.endDate)} · ${nights} night${nights === 1 ? '' : 's'}`}
          </Text>
          <Text size="xs" c="dimmed">
            Asked{' '}
            <time dateTime={request.createdAt} title={formatDateTime(request.createdAt)}>
              {formatRelative(request.createdAt)}
            </time>
          </Text>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            leftSection={<IconCheck size={16} aria-hidden="true" />}
            loading={approve.isPending}
            onClick={() =>
              approve.mutate(
                { action: 'approve' },
                {
                  onSuccess: () => {
                    // The row leaves the card: say what happened and what comes next.
                    notifications.show({
                      color: 'teal',
                      title: 'Stay approved',
                      message: `${request.guestName} at ${request.listingTitle}: the locks are getting the access, and the guest gets a mail once every lock has it.`,
                    });
                    // The live channel says so too; without it (a dropped connection) the list still follows.
                    void queryClient.invalidateQueries({ queryKey: waitingRequestsKey });
                  },
                },
              )
            }
            aria-label={`Approve ${request.guestName}'s stay at ${request.listingTitle}`}
          >
            Approve
          </Button>
          <Button
            size="xs"
            variant="default"
            component={Link}
            to={href}
            aria-label={`Decline or change ${request.guestName}'s request`}
          >
            Decline…
          </Button>
        </Group>
      </Group>
      {approve.error && (
        <Alert color="red" variant="light" p="xs">
          {errorMessage(approve.error)}
        </Alert>
      )}
    </Stack>
  );
}

/**
 * "Needs your answer": the stay requests guests sent from the public listing pages that wait for
 * the host (issue 19, item 3). Shown only while there are some: an empty card would be noise.
 */
export function NeedsAnswer() {
  const { data } = useWaitingRequests();
  if (!data || data.total === 0) return null;
  const more = data.total - data.items.length;
  return (
    <SectionCard
      title="Needs your answer"
      description="Guests asked for these stays. Approving gives them access on the listing's locks."
      aside={
        <Badge color="orange" variant="light" size="lg">
          {data.total} waiting
        </Badge>
      }
    >
      <Stack component="ul" gap={0} m={0} p={0} style={{ listStyle: 'none' }}>
        {data.items.map((request) => (
          <RequestRow key={request._id} request={request} />
        ))}
      </Stack>
      {more > 0 && (
        <Text size="sm" c="dimmed" mt="xs">
          and {more} more ·{' '}
          <Anchor component={Link} to={paths.app.rentalCenter.href()} size="sm">
            See them all in the rental center
          </Anchor>
        </Text>
      )}
    </SectionCard>
  );
}
