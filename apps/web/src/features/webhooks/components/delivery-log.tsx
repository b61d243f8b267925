import type { WebhookDelivery, WebhookDeliveryStatus } from '@latchkey/shared';
import { Badge, Button, Code, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconSend } from '@tabler/icons-react';
import { Fragment, useState } from 'react';
import { EmptyList } from '@/components/empty-list';
import { QueryError } from '@/components/query-error';
import { TableSkeleton } from '@/components/table-skeleton';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { useWebhookDeliveries } from '../api/get-webhook-deliveries';
import { useReplayWebhookDelivery } from '../api/replay-webhook-delivery';

const PAGE = 20;

const STATUS: Record<WebhookDeliveryStatus, { color: string; label: string }> = {
  pending: { color: 'yellow', label: 'Pending' },
  succeeded: { color: 'teal', label: 'Delivered' },
  failed: { color: 'red', label: 'Failed' },
};

export function DeliveryStatusBadge({ status }: { status: WebhookDeliveryStatus }) {
  return (
    <Badge color={STATUS[status].color} variant="light">
      {STATUS[status].label}
    </Badge>
  );
}

/** One delivery's attempts: time, status code, duration, the answer's first bytes, the error. */
function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <Stack gap={6} py={6}>
      {delivery.nextAttemptAt && <Text size="sm">Next attempt {formatDateTime(delivery.nextAttemptAt)}</Text>}
      <Table fz="xs" aria-label={`Attempts of ${delivery.messageId}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Attempt</Table.Th>
            <Table.Th scope="col">Answer</Table.Th>
            <Table.Th scope="col">Time taken</Table.Th>
            <Table.Th scope="col">Response or error</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {delivery.attempts.map((attempt) => (
            <Table.Tr key={attempt._id}>
              <Table.Td>
                {formatDateTime(attempt.at)}
                {attempt.manual ? ' (replay)' : ''}
              </Table.Td>
              <Table.Td>{attempt.statusCode === null ? 'No answer' : `HTTP ${attempt.statusCode}`}</Table.Td>
              <Table.Td>{attempt.durationMs} ms</Table.Td>
              <Table.Td style={{ wordBreak: 'break-all' }}>
                {attempt.error && <Text size="xs">{attempt.error}</Text>}
                {attempt.response && <Code>{attempt.response.slice(0, 300)}</Code>}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" fw={600}>
        Body
      </Text>
      <Code block>{JSON.stringify(delivery.payload, null, 2)}</Code>
    </Stack>
  );
}

/** An endpoint's delivery log: newest first, each message with its attempts, replay. */
export function DeliveryLog({ endpointId, disabled }: { endpointId: string; disabled: boolean }) {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string | null>(null);
  const deliveries = useWebhookDeliveries(endpointId, { skip: (page - 1) * PAGE, limit: PAGE });
  const replay = useReplayWebhookDelivery();

  if (deliveries.isPending) return <TableSkeleton rows={3} label="Loading the delivery log" />;
  if (deliveries.error)
    return (
      <QueryError
        title="Could not load the delivery log"
        error={deliveries.error}
        onRetry={() => void deliveries.refetch()}
      />
    );
  const { items, total } = deliveries.data;
  if (items.length === 0)
    return (
      <EmptyList
        icon={<IconSend size={28} aria-hidden="true" />}
        title="Nothing delivered yet"
        description="Events the endpoint takes appear here with every attempt. Send a test event to try it."
      />
    );
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing={6} fz="sm" aria-label="Delivery log">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Created</Table.Th>
              <Table.Th scope="col">Event</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Attempts</Table.Th>
              <Table.Th scope="col">Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((delivery) => (
              <Fragment key={delivery._id}>
                <Table.Tr>
                  <Table.Td>{formatDateTime(delivery.createdAt)}</Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={600}>
                      {delivery.eventType}
                    </Text>
                    <Text size="xs" style={{ wordBreak: 'break-all' }}>
                      {delivery.messageId}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <DeliveryStatusBadge status={delivery.status} />
                  </Table.Td>
                  <Table.Td>{delivery.attempts.length}</Table.Td>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="default"
                        aria-expanded={open === delivery._id}
                        onClick={() => setOpen(open === delivery._id ? null : delivery._id)}
                      >
                        {open === delivery._id ? 'Hide' : 'Details'}
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="light"
                        disabled={disabled}
                        loading={replay.isPending && replay.variables?.deliveryId === delivery._id}
                        onClick={() =>
                          replay.mutate(
                            { id: endpointId, deliveryId: delivery._id },
                            {
                              onSuccess: () =>
                                notifications.show({
                                  color: 'teal',
                                  title: 'Sent again',
                                  message: `${delivery.eventType} (${delivery.messageId})`,
                                }),
                              onError: (error) =>
                                notifications.show({
                                  color: 'red',
                                  title: 'Could not replay',
                                  message: errorMessage(error),
                                }),
                            },
                          )
                        }
                      >
                        Replay
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
                {open === delivery._id && (
                  <Table.Tr>
                    <Table.Td colSpan={5}>
                      <Attempts delivery={delivery} />
                    </Table.Td>
                  </Table.Tr>
                )}
              </Fragment>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {total > PAGE && (
        <Pagination
          total={Math.ceil(total / PAGE)}
          value={page}
          onChange={setPage}
          getControlProps={(control) => ({ 'aria-label': `${control} page` })}
        />
      )}
    </Stack>
  );
}
