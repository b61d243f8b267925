import { PLANS, type BillingOverview, type BillSummary, formatMoney } from '@latchkey/shared';
import {
  Anchor,
  Button,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconPrinter, IconReceipt } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { formatDate } from '@/lib/format';
import { useSession } from '@/lib/session';
import { useBilling } from '../api/get-billing';
import { usePastBills } from '../api/get-past-bills';
import { BillingProfileForm } from './billing-profile-form';
import { ResellerCard } from './reseller-card';
import { monthName } from './bill-text';

function Amount({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={strong ? 700 : 600} fz={strong ? 'xl' : 'md'}>
        {value}
      </Text>
    </Stack>
  );
}

function PlanCard({ billing }: { billing: BillingOverview }) {
  const plan = PLANS[billing.plan];
  return (
    <SectionCard
      title="Plan"
      description="Each lock is billed for the days it existed, at its plan’s price."
      h="100%"
    >
      <Stack gap="sm">
        <Text fw={700} fz="xl">
          {plan.name}
        </Text>
        <Text size="sm">
          {plan.pricePerLockMonth === 0
            ? `Up to ${plan.includedLocks} locks at no charge.`
            : `${formatMoney(plan.pricePerLockMonth, billing.currency)} per lock per month, before VAT, pro rata per day.`}
        </Text>
        <Button
          component={Link}
          to={paths.app.upgrade.href()}
          variant="default"
          style={{ alignSelf: 'flex-start' }}
        >
          Change plan
        </Button>
      </Stack>
    </SectionCard>
  );
}

function ThisMonthCard({ billing }: { billing: BillingOverview }) {
  const { current, currency } = billing;
  const closes = new Date(Date.UTC(current.year, current.month, 1)).toISOString();
  return (
    <SectionCard
      title={`This month: ${monthName(current.year, current.month)}`}
      description={`The bill runs until ${formatDate(closes, 'UTC')}, when it closes into an invoice.`}
      h="100%"
    >
      <Stack gap="md">
        <Group gap="xl" wrap="wrap">
          <Amount label="So far, with VAT" value={formatMoney(current.totalMinor, currency)} strong />
          <Amount
            label="Projected to the month’s end"
            value={formatMoney(current.projectedTotalMinor, currency)}
          />
        </Group>
        <Button
          component={Link}
          to={paths.app.monthBill.href(current.year, current.month)}
          variant="light"
          style={{ alignSelf: 'flex-start' }}
        >
          See this month’s lines
        </Button>
      </Stack>
    </SectionCard>
  );
}

function PastBillsTable({ bills }: { bills: BillSummary[] }) {
  return (
    <Table verticalSpacing="sm" highlightOnHover>
      <Table.Caption>Closed bills are kept as they were issued.</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Month and invoice</Table.Th>
          <Table.Th scope="col" ta="right">
            Total
          </Table.Th>
          <Table.Th scope="col">
            <VisuallyHidden>Print</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {bills.map((bill) => (
          <Table.Tr key={bill._id}>
            <Table.Td>
              <Anchor component={Link} to={paths.app.monthBill.href(bill.year, bill.month)} fw={600}>
                {monthName(bill.year, bill.month)}
              </Anchor>
              <Text size="sm" c="dimmed">
                {bill.invoiceNumber ?? 'Nothing to pay'}
              </Text>
            </Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
              {formatMoney(bill.totalMinor, bill.currency)}
            </Table.Td>
            <Table.Td ta="right">
              <Button
                component={Link}
                to={paths.print.bill.href(bill._id)}
                size="compact-sm"
                variant="subtle"
                leftSection={<IconPrinter size={14} aria-hidden="true" />}
                aria-label={`Print the bill of ${monthName(bill.year, bill.month)}`}
              >
                Print
              </Button>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function PastBillsCard({ firstClose }: { firstClose: string }) {
  const { data, error, isPending, refetch } = usePastBills();
  return (
    <SectionCard title="Past bills" description="Each month closes on the 1st of the next (UTC).">
      {isPending ? (
        <Skeleton height={120} radius="md" role="status" aria-label="Loading the past bills" />
      ) : error ? (
        <QueryError title="Could not load the past bills" error={error} onRetry={() => void refetch()} />
      ) : data.items.length === 0 ? (
        <EmptyList
          icon={<IconReceipt size={28} aria-hidden="true" />}
          title="No past bills yet"
          description={`The first bill closes on ${formatDate(firstClose, 'UTC')}.`}
        />
      ) : (
        <PastBillsTable bills={data.items} />
      )}
    </SectionCard>
  );
}

/** /app/billing (admin): plan, this month so far and projected, past bills, billing details. */
export function BillingPage() {
  const { data: billing, error, isPending, refetch } = useBilling();
  const portalName = useSession().data?.portal?.name ?? '';
  const header = (
    <PageHeader
      title="Billing"
      description="What this portal pays: every lock for the days it existed, on the plan of each day."
    />
  );
  if (isPending) {
    return (
      <Stack gap="lg" role="status" aria-label="Loading billing">
        {header}
        <Skeleton height={160} radius="lg" />
        <Skeleton height={200} radius="lg" />
      </Stack>
    );
  }
  if (error) {
    return (
      <Stack gap="lg">
        {header}
        <Paper p="md" radius="lg">
          <QueryError title="Could not load billing" error={error} onRetry={() => void refetch()} />
        </Paper>
      </Stack>
    );
  }
  const firstClose = new Date(Date.UTC(billing.current.year, billing.current.month, 1)).toISOString();
  return (
    <Stack gap="lg">
      {header}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }}>
          <PlanCard billing={billing} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }}>
          <ThisMonthCard billing={billing} />
        </Grid.Col>
      </Grid>
      <PastBillsCard firstClose={firstClose} />
      <ResellerCard billing={billing} />
      <SectionCard
        title="Billing details"
        description="Who the bills are made out to. VAT follows the country and VAT number."
      >
        <BillingProfileForm profile={billing.profile} portalName={portalName} />
      </SectionCard>
    </Stack>
  );
}
