import { formatMoney, type OrderStatus, type OrderView } from '@latchkey/shared';
import { Badge, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPackage } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDateTime, formatTime } from '@/lib/format';
import { useCancelOrder } from '../api/cancel-order';
import { useMyOrders } from '../api/get-my-orders';

export const ORDER_STATUS: Record<OrderStatus, { label: string; color: string }> = {
  pending: { label: 'Awaiting payment', color: 'yellow' },
  paid: { label: 'Paid', color: 'teal' },
  canceled: { label: 'Canceled', color: 'gray' },
  expired: { label: 'Not paid', color: 'gray' },
};

/**
 * An order awaiting payment: until when its units are held, and a way to give it up now (they go
 * back on sale at once instead of when the hold ends, and it can no longer be paid).
 */
function PendingOrder({ order, holdUntil }: { order: OrderView; holdUntil: string }) {
  const [asking, setAsking] = useState(false);
  const cancel = useCancelOrder();
  return (
    <Group justify="space-between" gap="sm" mt="sm">
      <Text size="sm" c="dimmed">
        Its items are held for you until <time dateTime={holdUntil}>{formatTime(holdUntil)}</time>; unpaid by
        then, the order lapses.
      </Text>
      <Button size="xs" variant="default" onClick={() => setAsking(true)}>
        Cancel order
      </Button>
      <ConfirmDialog
        opened={asking}
        onClose={() => setAsking(false)}
        title={`Cancel order ${order.ref}?`}
        confirmLabel="Cancel order"
        loading={cancel.isPending}
        onConfirm={() =>
          cancel.mutate(order._id, {
            onSuccess: () => {
              setAsking(false);
              notifications.show({
                color: 'teal',
                message: `Order ${order.ref} canceled. Nothing was charged.`,
              });
            },
            onError: (failure) => {
              setAsking(false);
              notifications.show({ color: 'red', title: 'Not canceled', message: errorMessage(failure) });
            },
          })
        }
      >
        Its items go back on sale and it can no longer be paid. Nothing has been charged.
      </ConfirmDialog>
    </Group>
  );
}

export function OrderCard({ order }: { order: OrderView }) {
  const status = ORDER_STATUS[order.status];
  return (
    <Paper component="li" withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <Group justify="space-between" align="flex-start" gap="sm" mb="sm">
        <Stack gap={2}>
          <Title order={2} fz="md">
            Order {order.ref}
          </Title>
          <Text size="sm" c="dimmed">
            <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time> · {order.shipping.name}{' '}
            to {order.address.city}
          </Text>
        </Stack>
        <Badge color={status.color} variant="light">
          {status.label}
        </Badge>
      </Group>
      <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {order.lines.map((line) => (
          <Group component="li" key={line.productId} justify="space-between" wrap="nowrap">
            <Text size="sm">
              {line.quantity} × {line.name}
            </Text>
            <Text size="sm">{formatMoney(line.lineTotal, order.currency)}</Text>
          </Group>
        ))}
      </Stack>
      <Group justify="space-between" mt="sm">
        <Text size="sm" c="dimmed">
          {order.preRegisteredLocks > 0 && order.portal
            ? `${order.preRegisteredLocks} lock${order.preRegisteredLocks === 1 ? '' : 's'} added to ${order.portal.name}`
            : ''}
        </Text>
        <Text fw={700}>{formatMoney(order.total, order.currency)}</Text>
      </Group>
      {order.status === 'pending' && order.holdUntil && (
        <PendingOrder order={order} holdUntil={order.holdUntil} />
      )}
    </Paper>
  );
}

/** /app/orders (signed in): the orders the person placed, newest first. */
export function MyOrdersPage() {
  const { data, error, isPending, refetch } = useMyOrders();
  return (
    <Stack gap="lg">
      <PageHeader
        title="Your orders"
        description="Hardware you bought while signed in."
        aside={
          <Button component={Link} to={paths.app.products.href()} variant="default">
            Shop
          </Button>
        }
      />
      {isPending ? (
        <Stack role="status" aria-label="Loading your orders">
          <Skeleton height={140} radius="lg" />
          <Skeleton height={140} radius="lg" />
        </Stack>
      ) : error ? (
        <QueryError title="Could not load your orders" error={error} onRetry={() => void refetch()} />
      ) : data.length === 0 ? (
        <EmptyList
          invite
          icon={<IconPackage size={28} aria-hidden="true" />}
          title="No orders yet"
          description="Locks, keypads and cards you buy here show up in this list."
          action={
            <Button component={Link} to={paths.app.products.href()}>
              Go to the shop
            </Button>
          }
        />
      ) : (
        <Stack component="ul" gap="md" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {data.map((order) => (
            <OrderCard key={order._id} order={order} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
