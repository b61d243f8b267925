import type { Session } from '@latchkey/shared';
import { PLANS } from '@latchkey/shared';
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconCreditCardOff, IconLockDollar } from '@tabler/icons-react';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { hasRequiredRole } from '@/lib/authorization';
import { formatDate } from '@/lib/format';
import { FAILING_STATUSES, useSubscription } from '../api/get-subscription';

/**
 * Tells a portal's admins that its plan is not paid (lapsed) or that a payment is failing, with
 * the way to fix it. The session's portal (brief §1: stripe status, expireDate, current) says when
 * to ask; the server's standing says which it is, so a portal that simply went back to the free
 * plan shows nothing.
 */
export function PaymentBanner({ session }: { session: Session }) {
  const portal = session.portal;
  const isAdmin = hasRequiredRole(session.roles, ['admin']);
  const failing = portal !== null && FAILING_STATUSES.includes(portal.stripe.status ?? '');
  const mayBeLapsed =
    portal !== null && !portal.current && (portal.stripe.status !== null || portal.expireDate !== null);
  const { data } = useSubscription(portal?._id ?? null, isAdmin && (failing || mayBeLapsed));
  if (!data || (data.standing !== 'lapsed' && data.standing !== 'past_due')) return null;

  const plan = PLANS[data.plan].name;
  if (data.standing === 'lapsed') {
    return (
      <Alert
        color="red"
        variant="light"
        radius="lg"
        mb="lg"
        icon={<IconLockDollar aria-hidden="true" />}
        title={`The ${plan} plan of this portal is not paid`}
        role="alert"
      >
        <Group justify="space-between" gap="sm" wrap="wrap">
          <Text size="sm" style={{ flex: '1 1 280px' }}>
            Its locks keep working and keep the access they have, but you cannot add locks or people until it
            is paid again.
          </Text>
          <Button component={Link} to={paths.app.upgrade.href()} size="xs">
            Renew the plan
          </Button>
        </Group>
      </Alert>
    );
  }
  return (
    <Alert
      color="orange"
      variant="light"
      radius="lg"
      mb="lg"
      icon={<IconCreditCardOff aria-hidden="true" />}
      title="A payment failed"
      role="alert"
    >
      <Group justify="space-between" gap="sm" wrap="wrap">
        <Text size="sm" style={{ flex: '1 1 280px' }}>
          We could not take the payment for the {plan} plan.
          {data.expireDate ? ` The portal stays paid up until ${formatDate(data.expireDate)}.` : ''} Change
          the card to keep it.
        </Text>
        <Button component={Link} to={paths.app.upgrade.href()} size="xs">
          Change the card
        </Button>
      </Group>
    </Alert>
  );
}
