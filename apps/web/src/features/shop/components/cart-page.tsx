import { formatMoney, MAX_LINE_QUANTITY, type Quote } from '@latchkey/shared';
import {
  ActionIcon,
  Alert,
  Button,
  Grid,
  Group,
  NumberInput,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconShoppingCart, IconTrash } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { cartLines, useCart } from '@/lib/use-cart';
import { usePaidOrderEmptiesCart } from '@/features/checkout/api/use-paid-order';
import { useQuote } from '../api/get-quote';
import { CheckoutSteps } from './checkout-steps';
import { OrderSummary } from './order-summary';

function CartLine({ line }: { line: Quote['lines'][number] }) {
  const { setQuantity } = useCart();
  const short = line.available < line.quantity;
  const max = Math.min(MAX_LINE_QUANTITY, Math.max(line.available, line.quantity));
  // While the field is being retyped it may be empty: the cart changes on a number, 0 removes.
  const [draft, setDraft] = useState<number | string>(line.quantity);
  const [shown, setShown] = useState(line.quantity);
  if (shown !== line.quantity) {
    setShown(line.quantity);
    setDraft(line.quantity);
  }
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Group wrap="nowrap" align="flex-start" gap="md">
        <img
          src={line.image}
          alt=""
          width={88}
          height={66}
          style={{ borderRadius: 8, objectFit: 'cover', flexShrink: 0 }}
        />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {line.name}
          </Text>
          <Text size="sm" c="dimmed">
            {formatMoney(line.unitPrice, 'EUR')} each
          </Text>
          {short && (
            <Text size="sm" c="red" role="alert">
              {line.available === 0
                ? 'Sold out: remove it to go on.'
                : `Only ${line.available} left: lower the quantity.`}
            </Text>
          )}
          <Group gap="xs" mt={4} wrap="nowrap">
            <NumberInput
              aria-label={`Quantity of ${line.name}`}
              value={draft}
              onChange={(value) => {
                setDraft(value);
                if (typeof value === 'number') setQuantity(line.productId, value);
              }}
              onBlur={() => {
                if (draft === '') setDraft(line.quantity);
              }}
              min={0}
              max={max}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="strict"
              w={90}
              size="sm"
            />
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={`Remove ${line.name}`}
              onClick={() => setQuantity(line.productId, 0)}
            >
              <IconTrash size={18} aria-hidden="true" />
            </ActionIcon>
          </Group>
        </Stack>
        <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
          {formatMoney(line.lineTotal, 'EUR')}
        </Text>
      </Group>
    </Paper>
  );
}

/** /cart (anyone): the cart at the server's prices; quantities change or remove items. */
export function CartPage() {
  const { cart, replace, clear } = useCart();
  const { paidOrderRef } = usePaidOrderEmptiesCart();
  // Why items left the cart: their order was paid (in another tab, or with no success page seen).
  const paidNotice = paidOrderRef && (
    <Alert color="teal" variant="light" role="status" title={`Order ${paidOrderRef} is paid`}>
      Its items left the cart, so they are not paid for twice. The confirmation is in your mail.
    </Alert>
  );
  const items = cartLines(cart);
  const { data, error, isPending, refetch } = useQuote({ items });

  // Items no longer on sale leave the cart (corrupt or stale entries).
  const unknown = data?.unknownProductIds.join();
  useEffect(() => {
    if (!unknown) return;
    const gone = new Set(unknown.split(','));
    replace(Object.fromEntries(Object.entries(cart).filter(([id]) => !gone.has(id))));
  }, [unknown, cart, replace]);

  if (items.length === 0) {
    return (
      <Stack gap="lg">
        <CheckoutSteps current={0} />
        <PageHeader title="Your cart" />
        {paidNotice}
        <EmptyList
          invite
          icon={<IconShoppingCart size={28} aria-hidden="true" />}
          title="Your cart is empty"
          description="Find locks, keypads and cards in the shop."
          action={
            <Button component={Link} to={paths.shop.products.href()}>
              Go to the shop
            </Button>
          }
        />
      </Stack>
    );
  }

  const blocked = data ? data.lines.some((line) => line.available < line.quantity) : true;
  return (
    <Stack gap="lg">
      <CheckoutSteps current={0} />
      <PageHeader title="Your cart" />
      {paidNotice}
      {error && <QueryError title="Could not price the cart" error={error} onRetry={() => void refetch()} />}
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 7 }}>
          {isPending ? (
            <Stack role="status" aria-label="Loading the cart">
              <Skeleton height={100} radius="md" />
              <Skeleton height={100} radius="md" />
            </Stack>
          ) : data ? (
            <Stack
              component="ul"
              gap="sm"
              style={{ listStyle: 'none', padding: 0, margin: 0 }}
              aria-label="Items in the cart"
            >
              {data.lines.map((line) => (
                <CartLine key={line.productId} line={line} />
              ))}
            </Stack>
          ) : null}
          <Group mt="md" gap="sm">
            <Button component={Link} to={paths.shop.products.href()} variant="default">
              Continue shopping
            </Button>
            <Button variant="subtle" color="red" onClick={() => clear()}>
              Empty the cart
            </Button>
          </Group>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="cart-summary">
            <Title order={2} fz="lg" mb="md" id="cart-summary">
              Summary
            </Title>
            {data ? <OrderSummary quote={data} /> : <Skeleton height={90} />}
            {data?.unknownProductIds.length ? (
              <Alert color="yellow" variant="light" mt="md">
                Some items are no longer on sale and were taken out of the cart.
              </Alert>
            ) : null}
            <Button
              component={Link}
              to={paths.shop.address.href()}
              fullWidth
              mt="lg"
              size="md"
              disabled={blocked}
              data-disabled={blocked || undefined}
              onClick={(event) => blocked && event.preventDefault()}
            >
              Check out
            </Button>
            <Text size="xs" c="dimmed" mt="xs" ta="center">
              Shipping is chosen in the next steps.
            </Text>
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
