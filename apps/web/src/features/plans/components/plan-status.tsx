import { PLANS, type PortalSubscription } from '@latchkey/shared';
import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { errorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { useCardPortal, useSetCanceling } from '../api/plan-actions';
import { STANDING } from './plan-words';

/** Where the portal stands: its plan, until when it is paid, a failing payment, card and cancel. */
export function PlanStatus({ subscription }: { subscription: PortalSubscription }) {
  const card = useCardPortal();
  const canceling = useSetCanceling();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const standing = STANDING[subscription.standing];
  const plan = PLANS[subscription.plan].name;
  const periodEnd = subscription.currentPeriodEnd ?? subscription.expireDate;

  let when: string | null = null;
  if (subscription.standing === 'lapsed') {
    when = subscription.expireDate ? `Not paid since ${formatDate(subscription.expireDate)}.` : 'Not paid.';
  } else if (subscription.billing === 'subscription' && periodEnd) {
    when = subscription.cancelAtPeriodEnd
      ? `Ends on ${formatDate(periodEnd)}; the portal then goes back to the Free plan.`
      : `Renews on ${formatDate(periodEnd)}.`;
  } else if (subscription.billing === 'prepaid' && subscription.expireDate) {
    when = `Paid until ${formatDate(subscription.expireDate)}.`;
  }
  const error = card.error ?? canceling.error;

  return (
    <Stack gap="md">
      <Group gap="sm">
        <Text fz={22} fw={700}>
          {plan}
        </Text>
        <Badge color={standing.color} variant="light">
          {standing.label}
        </Badge>
      </Group>
      <Text size="sm">
        {subscription.lockCount} lock{subscription.lockCount === 1 ? '' : 's'} in this portal.
        {when ? ` ${when}` : ''}
      </Text>
      {subscription.standing === 'lapsed' && (
        <Alert color="red" variant="light">
          The locks keep working and keep the access they have, but no locks or people can be added until the
          plan is paid again. Choose a plan below to renew it.
        </Alert>
      )}
      {subscription.standing === 'past_due' && (
        <Alert color="orange" variant="light" title="The last payment failed">
          {subscription.expireDate
            ? `The portal stays paid up until ${formatDate(subscription.expireDate)}. `
            : ''}
          Change the card and the payment is tried again.
        </Alert>
      )}
      {error ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(error)}
        </Alert>
      ) : null}
      <Group gap="sm">
        {subscription.canManageCard && (
          <Button
            variant={subscription.standing === 'past_due' ? 'filled' : 'default'}
            leftSection={<IconCreditCard size={18} aria-hidden="true" />}
            onClick={() => card.mutate()}
            loading={card.isPending || card.isSuccess}
          >
            Change the card
          </Button>
        )}
        {subscription.billing === 'subscription' &&
          (subscription.cancelAtPeriodEnd ? (
            <Button variant="default" onClick={() => canceling.mutate(false)} loading={canceling.isPending}>
              Keep my subscription
            </Button>
          ) : (
            <Button id="cancel" variant="subtle" color="red" onClick={() => setConfirmCancel(true)}>
              Cancel at the end of the period
            </Button>
          ))}
      </Group>
      <ConfirmDialog
        opened={confirmCancel}
        onClose={() => setConfirmCancel(false)}
        title="Cancel the subscription?"
        confirmLabel="Cancel at period end"
        loading={canceling.isPending}
        onConfirm={() => canceling.mutate(true, { onSettled: () => setConfirmCancel(false) })}
      >
        {`The ${plan} plan stays until ${periodEnd ? formatDate(periodEnd) : 'the end of the period'}; then the portal is on the Free plan (up to 2 locks). You can change your mind until then.`}
      </ConfirmDialog>
    </Stack>
  );
}
