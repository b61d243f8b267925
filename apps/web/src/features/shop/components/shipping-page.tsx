import {
  formatMoney,
  SHIPPING_COUNTRIES,
  type ShippingOption,
  type ShippingOptionId,
} from '@latchkey/shared';
import { Alert, Button, Grid, Group, Paper, Radio, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconCreditCard, IconTruck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { cartLines, useCart } from '@/lib/use-cart';
import { usePaidOrderEmptiesCart } from '@/features/checkout/api/use-paid-order';
import { useCreateOrder } from '../api/create-order';
import { useQuote } from '../api/get-quote';
import { readCheckoutState, rememberOrderCheckout, saveCheckoutState } from '@/lib/checkout-state';
import { CheckoutSteps } from './checkout-steps';
import { OrderSummary } from './order-summary';

function days(option: ShippingOption): string {
  if (option.id === 'pickup') return 'Ready the next working day';
  return option.minDays === option.maxDays
    ? `${option.minDays} working day${option.minDays === 1 ? '' : 's'}`
    : `${option.minDays}–${option.maxDays} working days`;
}

/** /pickShipping (anyone): how the order travels, the total, and on to the provider's payment page. */
export function ShippingPage() {
  const { cart, clear } = useCart();
  usePaidOrderEmptiesCart();
  const items = cartLines(cart);
  const state = readCheckoutState();
  const [choice, setChoice] = useState<ShippingOptionId | undefined>(state.shippingOption);
  const country = state.address?.country;
  const options = useQuote({ items, country });
  const offered = options.data?.shippingOptions ?? [];
  const chosen =
    offered.find((option) => option.id === choice) ??
    offered.find((option) => option.id === 'standard') ??
    offered[0];
  const priced = useQuote({ items, country, shippingOption: chosen?.id });
  // While another option's price is asked for, the previous answer is only a placeholder: its
  // total is not what paying now charges, so neither the summary nor the button shows it.
  const quote = priced.isPlaceholderData ? undefined : priced.data;
  const order = useCreateOrder();

  if (items.length === 0) return <Navigate to={paths.shop.cart.href()} replace />;
  if (!state.address || !country) return <Navigate to={paths.shop.address.href()} replace />;
  const address = state.address;

  const pay = (again = false) => {
    if (!chosen) return;
    saveCheckoutState({ shippingOption: chosen.id });
    order.mutate(
      { items, email: state.email, address, shippingOption: chosen.id, ...(again && { again }) },
      {
        onSuccess: ({ url, checkoutId, token }) => {
          // Whichever tab shows the outcome (or none), the paid items leave this cart.
          rememberOrderCheckout({ checkoutId, token, items: cart });
          window.location.assign(url);
        },
      },
    );
  };
  const outOfStock = isApiError(order.error) && order.error.code === 'out_of_stock';
  // The same items were paid for by this email a moment ago: asked, not paid twice.
  const alreadyPaid = isApiError(order.error) && order.error.code === 'already_paid';
  // One buyer holds only so much in unpaid checkouts at once (SHOP_HOLD_LIMITS): pay or cancel first.
  const holdLimit = isApiError(order.error) && order.error.code === 'hold_limit';

  return (
    <Stack gap="lg">
      <CheckoutSteps current={2} />
      <PageHeader
        title="Shipping"
        description={`To ${address.name}, ${address.city}, ${SHIPPING_COUNTRIES[country].name}`}
      />
      {options.error && (
        <QueryError
          title="Could not load the shipping options"
          error={options.error}
          onRetry={() => void options.refetch()}
        />
      )}
      <Grid gap="xl">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
            {options.isPending ? (
              <Stack role="status" aria-label="Loading the shipping options">
                <Skeleton height={56} />
                <Skeleton height={56} />
              </Stack>
            ) : (
              <Radio.Group
                label="Delivery"
                value={chosen?.id ?? null}
                onChange={(value) => setChoice(value as ShippingOptionId)}
              >
                <Stack gap="sm" mt="sm">
                  {offered.map((option) => (
                    <Radio.Card key={option.id} value={option.id} radius="md" p="md">
                      <Group wrap="nowrap" align="flex-start" gap="sm">
                        <Radio.Indicator />
                        <Stack gap={2} style={{ flex: 1 }}>
                          <Group justify="space-between" gap="xs">
                            <Text fw={600}>{option.name}</Text>
                            <Text fw={600}>
                              {option.price === 0 ? 'Free' : formatMoney(option.price, option.currency)}
                            </Text>
                          </Group>
                          <Text size="sm" c="dimmed">
                            {days(option)}
                          </Text>
                        </Stack>
                      </Group>
                    </Radio.Card>
                  ))}
                </Stack>
              </Radio.Group>
            )}
          </Paper>
          <Group mt="md">
            <Button component={Link} to={paths.shop.address.href()} variant="default">
              Change the address
            </Button>
          </Group>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>
          <Paper withBorder radius="lg" p="lg" component="section" aria-labelledby="pay-summary">
            <Group gap="xs" mb="md">
              <IconTruck size={20} aria-hidden="true" />
              <Title order={2} fz="lg" id="pay-summary">
                Your order
              </Title>
            </Group>
            {quote ? <OrderSummary quote={quote} shippingName={chosen?.name} /> : <Skeleton height={120} />}
            {order.error ? (
              <Alert
                color="red"
                variant="light"
                mt="md"
                role="alert"
                title={
                  outOfStock
                    ? 'Not enough in stock'
                    : alreadyPaid
                      ? 'You paid for these items already'
                      : holdLimit
                        ? 'Your unpaid checkouts hold enough already'
                        : 'Could not start the payment'
                }
              >
                <Text size="sm">{errorMessage(order.error)}</Text>
                {holdLimit && (
                  <Text size="sm" mt={4}>
                    Finish or cancel the payment you started; a payment page left unopened ends by itself
                    after a few minutes.
                  </Text>
                )}
                {alreadyPaid && (
                  <Group gap="xs" mt="xs">
                    <Button size="xs" color="red" onClick={() => clear()}>
                      Empty the cart
                    </Button>
                    <Button size="xs" variant="white" color="red" onClick={() => pay(true)}>
                      Order them again
                    </Button>
                  </Group>
                )}
                {outOfStock && (
                  <Button
                    component={Link}
                    to={paths.shop.cart.href()}
                    size="xs"
                    variant="white"
                    color="red"
                    mt="xs"
                  >
                    Change the cart
                  </Button>
                )}
              </Alert>
            ) : null}
            <Button
              fullWidth
              size="md"
              mt="lg"
              leftSection={<IconCreditCard size={18} aria-hidden="true" />}
              loading={order.isPending || order.isSuccess}
              disabled={!quote || !chosen || quote.shipping === null}
              onClick={() => pay()}
            >
              {quote && quote.shipping !== null ? `Pay ${formatMoney(quote.total, quote.currency)}` : 'Pay'}
            </Button>
            <Text size="xs" c="dimmed" mt="xs" ta="center">
              You pay on our payment provider&apos;s page; your card never reaches Latchkey.
            </Text>
          </Paper>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
