import {
  BILLING_CURRENCY,
  formatMoney,
  PLANS,
  PREPAID_MONTHS,
  prepaidAmount,
  type PlanId,
  type PortalSubscription,
} from '@latchkey/shared';
import { Alert, Anchor, Button, Radio, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { useSession } from '@/lib/session';
import { useSubscription } from '../api/get-subscription';
import { useStartPrepaid } from '../api/plan-actions';
import { PlanChooser } from './plan-chooser';
import { PlanStatus } from './plan-status';

/** The acting portal's subscription with its loading and error states. */
function WithSubscription({ children }: { children: (subscription: PortalSubscription) => ReactNode }) {
  const { data: session } = useSession();
  const { data, error, isPending, refetch } = useSubscription(session?.portal?._id ?? null);
  if (isPending) {
    return (
      <Stack role="status" aria-label="Loading your plan">
        <Skeleton height={120} radius="lg" />
        <Skeleton height={260} radius="lg" />
      </Stack>
    );
  }
  if (error)
    return <QueryError title="Could not load your plan" error={error} onRetry={() => void refetch()} />;
  return <>{children(data)}</>;
}

/** /app/gopro (admins): the plans, to move a portal off the free plan. */
export function GoProPage() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="Go Pro"
        description="Pay per lock per month for any number of locks, and on Business for rentals and guest stays. Change or cancel any time."
      />
      <WithSubscription>{(subscription) => <PlanChooser subscription={subscription} />}</WithSubscription>
      <Text size="sm">
        Rather pay for a period at once?{' '}
        <Anchor component={Link} to={paths.app.upgradeLegacy.href()}>
          Pay by card for 1, 3 or 12 months
        </Anchor>
        .
      </Text>
    </Stack>
  );
}

/** /app/upgrade (admins): the portal's plan and payment, and the plans to move to. */
export function UpgradePage() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="Plan and payment"
        description="What this portal is on, until when it is paid, and the other plans."
      />
      <WithSubscription>
        {(subscription) => (
          <>
            <SectionCard title="Your plan">
              <PlanStatus subscription={subscription} />
            </SectionCard>
            <SectionCard
              title={subscription.billing === 'subscription' ? 'Change the plan' : 'Choose a plan'}
            >
              <PlanChooser subscription={subscription} />
            </SectionCard>
            <SectionCard
              title="Pay for a period by card"
              description="Instead of a subscription: pay once for 1, 3 or 12 months of a plan."
            >
              <Button component={Link} to={paths.app.upgradeLegacy.href()} variant="default">
                Pay for a period
              </Button>
            </SectionCard>
          </>
        )}
      </WithSubscription>
    </Stack>
  );
}

function PrepaidForm({ subscription }: { subscription: PortalSubscription }) {
  const prepaid = useStartPrepaid();
  const [plan, setPlan] = useState<Exclude<PlanId, 'free'>>(
    subscription.plan === 'business' ? 'business' : 'pro',
  );
  const [months, setMonths] = useState<(typeof PREPAID_MONTHS)[number]>(12);
  const locks = Math.max(1, subscription.lockCount);
  const amount = prepaidAmount(PLANS[plan].pricePerLockMonth, locks, months);
  if (subscription.billing === 'subscription') {
    return (
      <Alert color="yellow" variant="light" title="This portal pays by subscription">
        Cancel the subscription first (
        <Anchor component={Link} to={paths.app.upgrade.href()}>
          Plan and payment
        </Anchor>
        ); you can pay for a period once it has ended.
      </Alert>
    );
  }
  return (
    <Stack gap="lg">
      <Radio.Group label="Plan" value={plan} onChange={(value) => setPlan(value as Exclude<PlanId, 'free'>)}>
        <Stack gap="xs" mt="xs">
          {(['pro', 'business'] as const).map((id) => (
            <Radio
              key={id}
              value={id}
              label={`${PLANS[id].name}: ${formatMoney(PLANS[id].pricePerLockMonth, BILLING_CURRENCY)} per lock a month`}
            />
          ))}
        </Stack>
      </Radio.Group>
      <Stack gap={6}>
        <Text size="sm" fw={500} id="months-label">
          Months
        </Text>
        <SegmentedControl
          aria-labelledby="months-label"
          value={String(months)}
          onChange={(value) => setMonths(Number(value) as (typeof PREPAID_MONTHS)[number])}
          data={PREPAID_MONTHS.map((m) => ({ value: String(m), label: `${m} month${m === 1 ? '' : 's'}` }))}
          w="fit-content"
        />
      </Stack>
      <Text>
        {locks} lock{locks === 1 ? '' : 's'} × {months} month{months === 1 ? '' : 's'} of {PLANS[plan].name}:{' '}
        <strong>{formatMoney(amount, BILLING_CURRENCY)}</strong> (before VAT)
        {subscription.expireDate && subscription.standing !== 'lapsed'
          ? `, added to the time already paid for.`
          : ', from today.'}
      </Text>
      {prepaid.error ? (
        <Alert color="red" variant="light" role="alert">
          {errorMessage(prepaid.error)}
        </Alert>
      ) : null}
      <Button
        leftSection={<IconCreditCard size={18} aria-hidden="true" />}
        onClick={() => prepaid.mutate({ plan, months })}
        loading={prepaid.isPending || prepaid.isSuccess}
        w="fit-content"
      >
        Pay {formatMoney(amount, BILLING_CURRENCY)} by card
      </Button>
      <Text size="xs" c="dimmed">
        You enter the card on our payment provider&apos;s page; it never reaches Latchkey.
      </Text>
    </Stack>
  );
}

/** /app/upgradeLegacy (admins): a period of a plan paid once by card (the brief's legacy card form). */
export function UpgradeLegacyPage() {
  return (
    <Stack gap="lg">
      <PageHeader
        title="Pay for a period"
        description="Pay once by card for months of a plan, without a subscription."
      />
      <SectionCard title="Plan and period">
        <WithSubscription>{(subscription) => <PrepaidForm subscription={subscription} />}</WithSubscription>
      </SectionCard>
    </Stack>
  );
}
