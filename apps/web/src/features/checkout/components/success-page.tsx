import { formatMoney, PLANS, type CheckoutView } from '@latchkey/shared';
import { Button, Group, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconClockHour4, IconQuestionMark, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { isSignedIn } from '@/lib/auth-token';
import { clearCart, removeFromCart } from '@/lib/cart';
import { clearCheckoutState, forgetOrderCheckout, readOrderCheckout } from '@/lib/checkout-state';
import { errorMessage } from '@/lib/errors';
import { sessionQueryKey } from '@/lib/session';
import { subscriptionRoot } from '@/features/plans/api/get-subscription';
import { CONFIRMATION_WAIT_MS, useCheckoutOutcome } from '../api/get-checkout';

function Outcome({
  icon,
  color,
  title,
  children,
  actions,
  live = false,
}: {
  icon: React.ReactNode;
  color: string;
  title: string;
  children: React.ReactNode;
  actions?: React.ReactNode;
  live?: boolean;
}) {
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} maw={560} mx="auto" w="100%">
      <Stack
        align="center"
        ta="center"
        gap="md"
        role={live ? 'status' : undefined}
        aria-live={live ? 'polite' : undefined}
      >
        <ThemeIcon size={64} radius="xl" variant="light" color={color} aria-hidden="true">
          {icon}
        </ThemeIcon>
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          {title}
        </Title>
        {children}
        {actions && (
          <Group justify="center" gap="sm" mt="xs">
            {actions}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

function Paid({ checkout }: { checkout: CheckoutView }) {
  const total = formatMoney(checkout.amountTotal, checkout.currency);
  if (checkout.kind === 'order') {
    return (
      <Outcome
        icon={<IconCircleCheck size={36} />}
        color="teal"
        title="Thank you for your order"
        actions={
          <>
            {isSignedIn() && (
              <Button component={Link} to={paths.app.orders.href()} variant="default">
                Your orders
              </Button>
            )}
            <Button component={Link} to={paths.shop.gotoApp.href()}>
              What happens next
            </Button>
          </>
        }
      >
        <Text>
          Order <strong>{checkout.orderRef}</strong> is paid: {total}.
        </Text>
        <Text c="dimmed" size="sm">
          We mailed you a confirmation with everything in it. Your hardware ships from Berlin.
        </Text>
      </Outcome>
    );
  }
  const plan = checkout.plan ? PLANS[checkout.plan].name : 'the new';
  return (
    <Outcome
      icon={<IconCircleCheck size={36} />}
      color="teal"
      title={`Your portal is on ${plan}`}
      actions={
        <Button component={Link} to={paths.app.upgrade.href()}>
          Go to the app
        </Button>
      }
    >
      <Text>
        {checkout.kind === 'prepaid'
          ? `Paid ${total} for ${checkout.months} month${checkout.months === 1 ? '' : 's'} of the ${plan} plan.`
          : `Your ${plan} subscription is running: ${total} a month.`}
      </Text>
      <Text c="dimmed" size="sm">
        The receipt comes from our payment provider by mail.
      </Text>
    </Outcome>
  );
}

/**
 * /success (anyone, from the provider's page): the outcome of a checkout as the server knows it.
 * The redirect itself proves nothing: the page waits for the provider's webhook to complete it.
 */
export function SuccessPage() {
  const [params] = useSearchParams();
  const checkoutId = params.get('checkout') ?? '';
  const token = params.get('token') ?? '';
  const [startedAt] = useState(() => Date.now());
  // After a minute without the provider's word, the page says so (and offers to look again).
  const [waitedLong, setWaitedLong] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWaitedLong(true), CONFIRMATION_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  const queryClient = useQueryClient();
  const { data, error, isPending, refetch } = useCheckoutOutcome(checkoutId, token, startedAt);

  const complete = data?.status === 'complete';
  const kind = data?.kind;
  useEffect(() => {
    if (!complete) return;
    if (kind === 'order') {
      // The paid items leave the cart; when this browser sent the order, only they do (what was
      // added since, say in another tab, stays).
      const sent = readOrderCheckout();
      if (sent?.checkoutId === checkoutId) removeFromCart(sent.items);
      else clearCart();
      clearCheckoutState();
      forgetOrderCheckout();
    } else {
      // The portal's plan and standing changed: the banner and the plan screens read again.
      void queryClient.invalidateQueries({ queryKey: sessionQueryKey });
      void queryClient.invalidateQueries({ queryKey: subscriptionRoot });
    }
  }, [complete, kind, checkoutId, queryClient]);

  if (!checkoutId || !token) {
    return (
      <Outcome
        icon={<IconQuestionMark size={36} />}
        color="gray"
        title="No payment to show"
        actions={
          <Button component={Link} to={paths.shop.products.href()}>
            Go to the shop
          </Button>
        }
      >
        <Text c="dimmed">This page shows the outcome of a payment you just made.</Text>
      </Outcome>
    );
  }
  if (isPending) {
    return (
      <Outcome
        icon={<Loader size={30} color="latchkey" />}
        color="latchkey"
        title="Confirming your payment…"
        live
      >
        <Text c="dimmed">This takes a few seconds.</Text>
      </Outcome>
    );
  }
  if (error) {
    const missing = isApiError(error) && error.status === 404;
    return (
      <Outcome
        icon={<IconQuestionMark size={36} />}
        color="gray"
        title={missing ? 'We could not find this payment' : 'Could not check the payment'}
        actions={!missing && <Button onClick={() => void refetch()}>Try again</Button>}
      >
        <Text c="dimmed">
          {missing
            ? 'The link may be incomplete. Your confirmation mail has the order reference.'
            : errorMessage(error)}
        </Text>
      </Outcome>
    );
  }
  if (data.status === 'complete') return <Paid checkout={data} />;
  if (data.status === 'open') {
    return (
      <Outcome
        icon={waitedLong ? <IconClockHour4 size={36} /> : <Loader size={30} color="latchkey" />}
        color="latchkey"
        title={waitedLong ? 'Your payment is still being confirmed' : 'Confirming your payment…'}
        live
        actions={waitedLong && <Button onClick={() => void refetch()}>Check again</Button>}
      >
        <Text c="dimmed">
          {waitedLong
            ? 'Our payment provider has not confirmed it yet. You will get a mail as soon as it does.'
            : 'Waiting for our payment provider to confirm it.'}
        </Text>
      </Outcome>
    );
  }
  return (
    <Outcome
      icon={<IconX size={36} />}
      color="gray"
      title="This payment was not completed"
      actions={
        <Button
          component={Link}
          to={data.kind === 'order' ? paths.shop.cart.href() : paths.app.upgrade.href()}
        >
          {data.kind === 'order' ? 'Back to the cart' : 'Back to your plan'}
        </Button>
      }
    >
      <Text c="dimmed">Nothing was charged.</Text>
    </Outcome>
  );
}
