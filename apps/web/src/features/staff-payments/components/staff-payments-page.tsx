import {
  formatMoney,
  ORDER_STATUSES,
  stockAdjustmentSchema,
  type InventoryItem,
  type OrderStatus,
} from '@latchkey/shared';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertTriangle, IconBell, IconPackage, IconReceipt } from '@tabler/icons-react';
import { useState } from 'react';
import { EmptyList } from '@/components/empty-list';
import { ListPagination } from '@/components/list-pagination';
import { BackLink } from '@/components/back-link';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import { QueryError } from '@/components/query-error';
import { SearchInput } from '@/components/search-input';
import { errorMessage } from '@/lib/errors';
import { formatDateTime } from '@/lib/format';
import { formResolver } from '@/lib/forms';
import { useAdjustStock, useInventory, useStaffAlerts, useStaffOrders } from '../api/staff-api';

const PAGE_SIZE = 25;
const STATUS_WORDS: Record<OrderStatus, { label: string; color: string }> = {
  pending: { label: 'Awaiting payment', color: 'yellow' },
  paid: { label: 'Paid', color: 'teal' },
  canceled: { label: 'Canceled', color: 'gray' },
  expired: { label: 'Not paid', color: 'gray' },
};
const ALERT_WORDS: Record<string, string> = {
  webhook_failed: 'Webhook failed',
  webhook_signature: 'Forged webhook',
  payment_failed: 'Payment failed',
  subscription_lapsed: 'Subscription lapsed',
  stock_oversold: 'Oversold',
};

function Loading({ label }: { label: string }) {
  return (
    <Stack role="status" aria-label={label}>
      <Skeleton height={36} />
      <Skeleton height={36} />
      <Skeleton height={36} />
    </Stack>
  );
}

function AlertsTab() {
  const [page, setPage] = useState(1);
  const { data, error, isPending, refetch } = useStaffAlerts((page - 1) * PAGE_SIZE, PAGE_SIZE);
  if (isPending) return <Loading label="Loading the payment alerts" />;
  if (error)
    return <QueryError title="Could not load the alerts" error={error} onRetry={() => void refetch()} />;
  if (data.total === 0) {
    return (
      <EmptyList
        icon={<IconBell size={28} aria-hidden="true" />}
        title="No payment alerts"
        description="Failed or forged webhooks and failed payments show up here, and are mailed to platform staff."
      />
    );
  }
  return (
    <>
      <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {data.items.map((alert) => (
          <Paper component="li" key={alert._id} withBorder radius="md" p="md">
            <Group justify="space-between" gap="xs" align="flex-start">
              <Group gap="xs">
                <Badge
                  color={alert.kind === 'payment_failed' ? 'orange' : 'red'}
                  variant="light"
                  leftSection={<IconAlertTriangle size={12} aria-hidden="true" />}
                >
                  {ALERT_WORDS[alert.kind] ?? alert.kind}
                </Badge>
                <Text fw={600} size="sm">
                  {alert.title}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                <time dateTime={alert.createdAt}>{formatDateTime(alert.createdAt)}</time>
              </Text>
            </Group>
            <Text size="sm" mt={6} style={{ overflowWrap: 'anywhere' }}>
              {alert.message}
            </Text>
            {alert.portal && (
              <Text size="xs" c="dimmed" mt={4}>
                Portal: {alert.portal.name}
              </Text>
            )}
          </Paper>
        ))}
      </Stack>
      <ListPagination page={page} pageSize={PAGE_SIZE} total={data.total} onChange={setPage} noun="alerts" />
    </>
  );
}

function OrdersTab() {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<OrderStatus | null>(null);
  const { data, error, isPending, refetch } = useStaffOrders({
    skip: (page - 1) * PAGE_SIZE,
    limit: PAGE_SIZE,
    search,
    status: status ?? undefined,
  });
  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <SearchInput
          label="Search orders"
          placeholder="Reference or email"
          value={search}
          onSearch={(value) => {
            setSearch(value);
            setPage(1);
          }}
          style={{ flex: '1 1 220px' }}
        />
        <Select
          label="Status"
          placeholder="Any"
          data={ORDER_STATUSES.map((value) => ({ value, label: STATUS_WORDS[value].label }))}
          value={status}
          onChange={(value) => {
            setStatus(value as OrderStatus | null);
            setPage(1);
          }}
          clearable
          w={200}
        />
      </Group>
      {isPending ? (
        <Loading label="Loading the orders" />
      ) : error ? (
        <QueryError title="Could not load the orders" error={error} onRetry={() => void refetch()} />
      ) : data.total === 0 ? (
        <EmptyList
          icon={<IconReceipt size={28} aria-hidden="true" />}
          title="No orders"
          description={search || status ? 'No order matches.' : 'Orders from the shop show up here.'}
        />
      ) : (
        <>
          <Table.ScrollContainer minWidth={720}>
            <Table highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Order</Table.Th>
                  <Table.Th scope="col">Placed</Table.Th>
                  <Table.Th scope="col">Buyer</Table.Th>
                  <Table.Th scope="col">Items</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col" ta="right">
                    Total
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((order) => (
                  <Table.Tr key={order._id}>
                    <Table.Td fw={600}>{order.ref}</Table.Td>
                    <Table.Td>{formatDateTime(order.createdAt)}</Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      {order.email}
                      <Text size="xs" c="dimmed">
                        {order.address.city}, {order.address.country}
                        {order.portal ? ` · ${order.portal.name}` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      {order.lines.map((line) => `${line.quantity} × ${line.sku}`).join(', ')}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_WORDS[order.status].color} variant="light">
                        {STATUS_WORDS[order.status].label}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right">{formatMoney(order.total, order.currency)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListPagination
            page={page}
            pageSize={PAGE_SIZE}
            total={data.total}
            onChange={setPage}
            noun="orders"
          />
        </>
      )}
    </Stack>
  );
}

function StockDialog({ item, onClose }: { item: InventoryItem; onClose: () => void }) {
  const adjust = useAdjustStock();
  const form = useForm({
    initialValues: { onHand: item.onHand, reason: '' },
    validate: formResolver(stockAdjustmentSchema, { onHand: 'On hand', reason: 'Reason' }),
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={`Stock of ${item.name}`}
      centered
      closeButtonProps={{ 'aria-label': 'Close' }}
    >
      <form
        onSubmit={form.onSubmit((values) =>
          adjust.mutate({ productId: item._id, ...values }, { onSuccess: onClose }),
        )}
        noValidate
      >
        <Stack gap="md">
          <Text size="sm">{item.reserved} held by open checkouts; on hand cannot be fewer.</Text>
          <NumberInput
            label="On hand"
            min={0}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('onHand')}
          />
          <TextInput
            label="Reason"
            placeholder="Delivery, stock count…"
            required
            {...form.getInputProps('reason')}
          />
          {adjust.error ? (
            <Alert color="red" variant="light" role="alert">
              {errorMessage(adjust.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={adjust.isPending}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function InventoryTab() {
  const { data, error, isPending, refetch } = useInventory();
  const [editing, setEditing] = useState<InventoryItem | null>(null);
  if (isPending) return <Loading label="Loading the stock" />;
  if (error)
    return <QueryError title="Could not load the stock" error={error} onRetry={() => void refetch()} />;
  if (data.length === 0)
    return (
      <EmptyList
        icon={<IconPackage size={28} aria-hidden="true" />}
        title="No products"
        description="The catalogue is empty."
      />
    );
  return (
    <>
      <Table.ScrollContainer minWidth={560}>
        <Table highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Product</Table.Th>
              <Table.Th scope="col" ta="right">
                On hand
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Held
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Available
              </Table.Th>
              <Table.Th scope="col">
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.map((item) => (
              <Table.Tr key={item._id}>
                <Table.Td>
                  {item.name}
                  <Text size="xs" c="dimmed">
                    {item.sku}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">{item.onHand}</Table.Td>
                <Table.Td ta="right">{item.reserved}</Table.Td>
                <Table.Td ta="right">
                  <Text
                    span
                    c={item.available <= 5 ? 'orange' : undefined}
                    fw={item.available <= 5 ? 700 : undefined}
                  >
                    {item.available}
                  </Text>
                </Table.Td>
                <Table.Td ta="right">
                  <Button
                    size="xs"
                    variant="default"
                    onClick={() => setEditing(item)}
                    aria-label={`Set the stock of ${item.name}`}
                  >
                    Set stock
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {editing && <StockDialog item={editing} onClose={() => setEditing(null)} />}
    </>
  );
}

/** /app/devTools/payments (platform staff): payment alerts, every order, and the shop's stock. */
export function StaffPaymentsPage() {
  return (
    <Stack gap="lg">
      <BackLink to={paths.app.devTools.href()} label="Developer tools" />
      <PageHeader
        title="Payments"
        description="What went wrong with payments, the shop's orders and its stock."
      />
      <Tabs defaultValue="alerts" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="alerts" leftSection={<IconBell size={16} aria-hidden="true" />}>
            Alerts
          </Tabs.Tab>
          <Tabs.Tab value="orders" leftSection={<IconReceipt size={16} aria-hidden="true" />}>
            Orders
          </Tabs.Tab>
          <Tabs.Tab value="inventory" leftSection={<IconPackage size={16} aria-hidden="true" />}>
            Stock
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="alerts" pt="md">
          <AlertsTab />
        </Tabs.Panel>
        <Tabs.Panel value="orders" pt="md">
          <OrdersTab />
        </Tabs.Panel>
        <Tabs.Panel value="inventory" pt="md">
          <InventoryTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
