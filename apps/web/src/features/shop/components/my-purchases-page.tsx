import { formatMoney } from '@latchkey/shared';
import { Anchor, Button, Group, Skeleton, Stack, Text } from '@mantine/core';
import { IconPrinter, IconReceipt, IconShoppingBag } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { useMyOrders } from '../api/get-my-orders';
import { OrderCard } from './my-orders-page';

const LIST_STYLE = { listStyle: 'none', padding: 0, margin: 0 } as const;

/** What a person paid, per currency ("€129.00 and $40.00"). */
function totalsOf(orders: { total: number; currency: string }[]): string {
  const sums = new Map<string, number>();
  for (const order of orders) sums.set(order.currency, (sums.get(order.currency) ?? 0) + order.total);
  return [...sums].map(([currency, total]) => formatMoney(total, currency)).join(' and ');
}

/**
 * /app/billing for a person who does not run the portal (brief §6: billing is any signed-in
 * user's): what is theirs, the hardware they bought with their account, paid orders as receipts
 * (printable) and the ones still open; the portal's plan and bills stay with its admins.
 */
export function MyPurchasesPage() {
  const { data, error, isPending, refetch } = useMyOrders();
  const header = (
    <PageHeader
      title="Billing"
      description="What you bought with your account. Your portal's plan and bills are kept by its admins."
      aside={
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconPrinter size={18} aria-hidden="true" />}
            onClick={() => window.print()}
          >
            Print
          </Button>
          <Button
            component={Link}
            to={paths.app.products.href()}
            leftSection={<IconShoppingBag size={18} aria-hidden="true" />}
          >
            Shop
          </Button>
        </Group>
      }
    />
  );
  if (isPending) {
    return (
      <Stack gap="lg" role="status" aria-label="Loading your purchases">
        {header}
        <Skeleton height={140} radius="lg" />
      </Stack>
    );
  }
  if (error) {
    return (
      <Stack gap="lg">
        {header}
        <QueryError title="Could not load your purchases" error={error} onRetry={() => void refetch()} />
      </Stack>
    );
  }
  const paid = data.filter((order) => order.status === 'paid');
  const open = data.filter((order) => order.status === 'pending');
  return (
    <Stack gap="lg" maw={960}>
      {header}
      <SectionCard
        title="Receipts"
        description={
          paid.length > 0
            ? `${paid.length} paid order${paid.length === 1 ? '' : 's'}, ${totalsOf(paid)} in all, VAT included.`
            : undefined
        }
      >
        {paid.length === 0 ? (
          <EmptyList
            invite
            icon={<IconReceipt size={28} aria-hidden="true" />}
            title="Nothing bought yet"
            description="Locks, keypads and cards you buy in the shop show up here with their receipt."
            action={
              <Button component={Link} to={paths.app.products.href()}>
                Go to the shop
              </Button>
            }
          />
        ) : (
          <Stack component="ul" gap="md" style={LIST_STYLE} aria-label="Receipts">
            {paid.map((order) => (
              <OrderCard key={order._id} order={order} />
            ))}
          </Stack>
        )}
      </SectionCard>
      {open.length > 0 && (
        <SectionCard
          title="Awaiting payment"
          description="Orders whose payment has not arrived yet; they end by themselves if it does not."
        >
          <Stack component="ul" gap="md" style={LIST_STYLE} aria-label="Orders awaiting payment">
            {open.map((order) => (
              <OrderCard key={order._id} order={order} />
            ))}
          </Stack>
        </SectionCard>
      )}
      <Text size="sm" c="dimmed">
        Every order, canceled and unpaid ones included, is in{' '}
        <Anchor component={Link} to={paths.app.orders.href()}>
          Your orders
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
