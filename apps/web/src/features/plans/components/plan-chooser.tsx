import {
  formatMoney,
  PLAN_FEATURE_NAMES,
  PLAN_IDS,
  PLANS,
  BILLING_CURRENCY,
  type PlanId,
  type PortalSubscription,
} from '@latchkey/shared';
import { Alert, Badge, Button, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { useChangePlan, useMoveToFree, useStartSubscription } from '../api/plan-actions';

type PaidPlan = Exclude<PlanId, 'free'>;

/** What moving from a plan to Free takes away, as the end of a sentence ("" when nothing). */
function lostFeatures(plan: PlanId): string {
  const lost = PLANS[plan].features.filter((feature) => !PLANS.free.features.includes(feature));
  if (lost.length === 0) return '';
  return `, no new ${lost.map((feature) => PLAN_FEATURE_NAMES[feature].toLowerCase()).join(' or ')} (what exists keeps working)`;
}

/** Why Free is not offered while a prepaid period runs, and what happens when it ends. */
function freeAfterPrepaid(subscription: PortalSubscription, locks: number): string {
  const ends = subscription.expireDate ? ` on ${formatDate(subscription.expireDate)}` : '';
  const over =
    PLANS.free.maxLocks !== null && locks > PLANS.free.maxLocks
      ? ` Free holds up to ${PLANS.free.maxLocks} locks; this portal has ${locks}, and would add none past them.`
      : '';
  return `Your prepaid ${PLANS[subscription.plan].name} period ends${ends}; unrenewed, the portal can then move to Free.${over}`;
}

/**
 * The three plans side by side, priced for the portal's locks. Without a running subscription a
 * paid plan starts one (the provider's checkout page); with one, it moves it to that plan.
 */
export function PlanChooser({ subscription }: { subscription: PortalSubscription }) {
  const start = useStartSubscription();
  const change = useChangePlan();
  const toFree = useMoveToFree();
  const [confirmFree, setConfirmFree] = useState(false);
  const [switchTo, setSwitchTo] = useState<PaidPlan | null>(null);
  const locks = Math.max(1, subscription.lockCount);
  const subscribed = subscription.billing === 'subscription';
  const lapsed = subscription.standing === 'lapsed';
  const error = start.error ?? change.error ?? toFree.error;

  return (
    <Stack gap="md">
      {error ? (
        <Alert color="red" variant="light" role="alert" title="That did not work">
          {errorMessage(error)}
        </Alert>
      ) : null}
      {change.isSuccess && (
        <Alert color="teal" variant="light" role="status">
          Your plan is changing; it shows here as soon as the payment provider confirms it.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
        {PLAN_IDS.map((id) => {
          const plan = PLANS[id];
          const isCurrent = subscription.plan === id && !lapsed;
          const monthly = plan.pricePerLockMonth * locks;
          return (
            <Paper
              key={id}
              withBorder
              radius="lg"
              p="lg"
              component="section"
              aria-labelledby={`plan-${id}`}
              style={
                isCurrent
                  ? { borderColor: 'var(--mantine-color-latchkey-filled)', borderWidth: 2 }
                  : undefined
              }
            >
              <Stack gap="sm" h="100%">
                <Title order={3} fz="lg" id={`plan-${id}`}>
                  {plan.name}{' '}
                  {isCurrent && (
                    <Badge ml={4} variant="light">
                      Your plan
                    </Badge>
                  )}
                </Title>
                <Text fz={26} fw={700} lh={1.1}>
                  {plan.pricePerLockMonth === 0
                    ? 'Free'
                    : formatMoney(plan.pricePerLockMonth, BILLING_CURRENCY)}
                  {plan.pricePerLockMonth > 0 && (
                    <Text span size="sm" fw={400} c="dimmed">
                      {' '}
                      per lock a month
                    </Text>
                  )}
                </Text>
                <Text size="sm" c="dimmed">
                  {plan.maxLocks !== null
                    ? `Up to ${plan.maxLocks} locks`
                    : `${formatMoney(monthly, BILLING_CURRENCY)} a month for your ${locks} lock${locks === 1 ? '' : 's'}`}
                </Text>
                <List
                  size="sm"
                  spacing={4}
                  icon={<IconCheck size={16} color="var(--mantine-color-teal-filled)" aria-hidden="true" />}
                  style={{ flex: 1 }}
                >
                  <List.Item>Locks, people, codes, cards and schedules</List.Item>
                  {plan.maxLocks === null && <List.Item>Any number of locks</List.Item>}
                  {plan.features.map((feature) => (
                    <List.Item key={feature}>{PLAN_FEATURE_NAMES[feature]}</List.Item>
                  ))}
                </List>
                {id === 'free' ? (
                  subscribed ? (
                    <Button component={Link} to={`${paths.app.upgrade.href()}#cancel`} variant="default">
                      Cancel the subscription
                    </Button>
                  ) : lapsed ? (
                    <Button variant="default" onClick={() => setConfirmFree(true)}>
                      Move to Free
                    </Button>
                  ) : isCurrent ? (
                    <Button variant="light" disabled>
                      Current plan
                    </Button>
                  ) : (
                    // A prepaid period runs: nothing to cancel, and nothing to choose until it ends.
                    <Text size="sm" c="dimmed">
                      {freeAfterPrepaid(subscription, locks)}
                    </Text>
                  )
                ) : isCurrent ? (
                  <Button variant="light" disabled>
                    Current plan
                  </Button>
                ) : subscribed ? (
                  <Button variant="default" onClick={() => setSwitchTo(id)}>
                    Switch to {plan.name}
                  </Button>
                ) : (
                  <Button
                    onClick={() => start.mutate(id)}
                    loading={start.isPending && start.variables === id}
                    disabled={start.isPending || start.isSuccess}
                  >
                    {lapsed && subscription.plan === id ? `Renew ${plan.name}` : `Choose ${plan.name}`}
                  </Button>
                )}
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        Prices per lock per month, before VAT. You pay on our payment provider&apos;s page; your card never
        reaches Latchkey.
      </Text>
      <ConfirmDialog
        opened={confirmFree}
        onClose={() => setConfirmFree(false)}
        title="Move to the Free plan?"
        confirmLabel="Move to Free"
        color="latchkey"
        loading={toFree.isPending}
        onConfirm={() => toFree.mutate(undefined, { onSettled: () => setConfirmFree(false) })}
      >
        {`The portal stops paying for the ${PLANS[subscription.plan].name} plan and is on the Free plan from now on: up to ${PLANS.free.maxLocks} locks${lostFeatures(subscription.plan)}.`}
      </ConfirmDialog>
      <ConfirmDialog
        opened={switchTo !== null}
        onClose={() => setSwitchTo(null)}
        title={switchTo ? `Switch to ${PLANS[switchTo].name}?` : ''}
        confirmLabel="Switch plan"
        color="latchkey"
        loading={change.isPending}
        onConfirm={() => {
          if (!switchTo) return;
          change.mutate(switchTo, { onSettled: () => setSwitchTo(null) });
        }}
      >
        {switchTo
          ? `From now on the portal pays ${formatMoney(PLANS[switchTo].pricePerLockMonth, BILLING_CURRENCY)} per lock a month. The rest of this month is charged or credited pro rata on the next invoice.`
          : ''}
      </ConfirmDialog>
    </Stack>
  );
}
