import { Button, Loader, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowBackUp, IconCircleCheck } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useCancelCheckout } from '../api/cancel-checkout';

/**
 * /canceled (anyone, from the provider's "back" link): the checkout is ended and what it held
 * (stock) released, unless it was paid after all. Nothing is charged.
 */
export function CanceledPage() {
  const [params] = useSearchParams();
  const checkoutId = params.get('checkout') ?? '';
  const token = params.get('token') ?? '';
  const cancel = useCancelCheckout();
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current || !checkoutId || !token) return;
    asked.current = true;
    cancel.mutate({ checkoutId, token });
  }, [cancel, checkoutId, token]);

  const view = cancel.data;
  const isPlan = view ? view.kind !== 'order' : false;
  const back = isPlan
    ? { to: paths.app.upgrade.href(), label: 'Back to your plan' }
    : { to: paths.shop.cart.href(), label: 'Back to the cart' };

  let body: React.ReactNode;
  if (!checkoutId || !token || cancel.isError) {
    body = (
      <>
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          Payment canceled
        </Title>
        <Text c="dimmed">{cancel.isError ? errorMessage(cancel.error) : 'Nothing was charged.'}</Text>
      </>
    );
  } else if (!view) {
    body = (
      <div role="status" aria-live="polite">
        <Loader size={30} color="latchkey" aria-hidden="true" />
        <Text c="dimmed" mt="sm">
          Canceling the payment…
        </Text>
      </div>
    );
  } else if (view.status === 'complete') {
    body = (
      <>
        <ThemeIcon size={64} radius="xl" variant="light" color="teal" aria-hidden="true">
          <IconCircleCheck size={36} />
        </ThemeIcon>
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          Your payment went through after all
        </Title>
        <Button component={Link} to={paths.shop.success.href({ checkout: checkoutId, token })}>
          See the details
        </Button>
      </>
    );
  } else {
    body = (
      <>
        <ThemeIcon size={64} radius="xl" variant="light" color="gray" aria-hidden="true">
          <IconArrowBackUp size={36} />
        </ThemeIcon>
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          Payment canceled
        </Title>
        <Text>Nothing was charged.</Text>
        <Text c="dimmed" size="sm">
          {isPlan ? 'Your plan is unchanged.' : 'Your cart is still here whenever you want to try again.'}
        </Text>
      </>
    );
  }
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 'xl' }} maw={560} mx="auto" w="100%">
      <Stack align="center" ta="center" gap="md">
        {body}
        {(!view || view.status !== 'complete') && (
          <Button component={Link} to={back.to} variant={view ? 'filled' : 'default'}>
            {back.label}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
