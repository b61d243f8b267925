import {
  formatMoney,
  formatMonth,
  PLANS,
  PORTAL_STANDING_LABELS,
  resellerCreateSchema,
  resellerCustomerInputSchema,
  type BillingSummary,
  type ResellerAccount,
  type ResellerCustomer,
  type ResellerCustomerInput,
} from '@latchkey/shared';
import {
  ActionIcon,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBuildingStore, IconChevronLeft, IconChevronRight, IconPlus } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useNavigate } from 'react-router';
import { EmptyList } from '@/components/empty-list';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { ResellerBrandCard } from '@/features/content/components/reseller-brand-card';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { formatDate, timeZones } from '@/lib/format';
import { rememberActingReturn } from '@/lib/portal-override';
import { formResolver, useFormMutation } from '@/lib/forms';
import { useSwitchPortal } from '@/features/portal/api/switch-portal';
import { useCreateCustomer } from '../api/create-customer';
import { useCreateReseller } from '../api/create-reseller';
import { useBillingSummary } from '../api/get-billing-summary';
import { useResellerAccount } from '../api/get-reseller-account';
import { COMPANY_LABELS, CompanyFields, companyInput, type CompanyValues } from './company-fields';

const monthName = formatMonth;

/** The reseller's link code as it is read out: ABCD-EF23. */
export function formatLinkCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

function OpenResellerAccount() {
  const create = useCreateReseller();
  const form = useForm<CompanyValues>({
    mode: 'controlled',
    initialValues: { companyName: '', country: '', vatNumber: '' },
    validate: formResolver(resellerCreateSchema, COMPANY_LABELS, companyInput),
  });
  const { submit } = useFormMutation(form, {
    run: async (values) => {
      await create.mutateAsync(companyInput(values));
      notifications.show({
        color: 'teal',
        title: 'Reseller account opened',
        message: 'Add your first customer portal.',
      });
    },
    labels: COMPANY_LABELS,
    otherwise: 'Could not open the account',
  });
  return (
    <SectionCard
      title="Open a reseller account"
      description="Installers and integrators set up portals for their customers here, and see what each is billed, the wholesale cost and their margin."
    >
      <form onSubmit={submit} noValidate aria-label="Open a reseller account">
        <Stack gap="md">
          <CompanyFields form={form} />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending}>
              Open reseller account
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}

function Money({ minor, currency, strong = false }: { minor: number; currency: string; strong?: boolean }) {
  return (
    <Text span fw={strong ? 700 : undefined} size="sm" style={{ whiteSpace: 'nowrap' }}>
      {formatMoney(minor, currency)}
    </Text>
  );
}

function SummaryTable({ summary }: { summary: BillingSummary }) {
  const { currency, totals } = summary;
  const noteId = useId();
  // The note is outside the scroll box, so it wraps on a phone instead of scrolling with the table;
  // the box itself is focusable and named as scrolling, so a keyboard can scroll it too.
  return (
    <Stack gap="xs">
      <Table.ScrollContainer
        minWidth={300}
        role="region"
        tabIndex={0}
        aria-label="Billing per customer (scrolls sideways)"
      >
        <Table verticalSpacing="sm" horizontalSpacing="xs" fz="sm" aria-describedby={noteId}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Customer</Table.Th>
              <Table.Th scope="col" ta="right">
                Billed
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Wholesale
              </Table.Th>
              <Table.Th scope="col" ta="right">
                Margin
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {summary.customers.map((row) => (
              <Table.Tr key={row.portalId}>
                <Table.Th scope="row" fw={500}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {row.portalName}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {row.invoiceNumber ?? (summary.status === 'open' ? 'So far' : 'Nothing billed')}
                  </Text>
                </Table.Th>
                <Table.Td ta="right">
                  <Money minor={row.billedNetMinor} currency={currency} />
                </Table.Td>
                <Table.Td ta="right">
                  <Money minor={row.wholesaleMinor} currency={currency} />
                </Table.Td>
                <Table.Td ta="right">
                  <Money minor={row.marginMinor} currency={currency} strong />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr>
              <Table.Th scope="row">Total</Table.Th>
              <Table.Td ta="right">
                <Money minor={totals.billedNetMinor} currency={currency} strong />
              </Table.Td>
              <Table.Td ta="right">
                <Money minor={totals.wholesaleMinor} currency={currency} strong />
              </Table.Td>
              <Table.Td ta="right">
                <Money minor={totals.marginMinor} currency={currency} strong />
              </Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </Table.ScrollContainer>
      <Text id={noteId} size="xs" c="dimmed">
        Billed: what each customer pays before VAT. Wholesale: what you pay for the same lock-days. Margin:
        the difference.
      </Text>
    </Stack>
  );
}

function shift(month: { year: number; month: number }, by: number) {
  const index = month.year * 12 + (month.month - 1) + by;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

function SummaryCard() {
  const [month, setMonth] = useState<{ year: number; month: number } | null>(null);
  const { data: summary, error, isPending, isFetching, refetch } = useBillingSummary(month);
  const shown = summary ? { year: summary.year, month: summary.month } : null;
  const isFirst = summary ? summary.year === summary.firstYear && summary.month === summary.firstMonth : true;
  const title = shown ? monthName(shown.year, shown.month) : 'This month';
  return (
    <SectionCard
      title={`Billing summary: ${title}`}
      description={
        summary?.status === 'open'
          ? 'This month so far, for the customers linked to you now.'
          : 'Closed bills of the customers linked to you at the month’s end.'
      }
      aside={
        <Group gap={4}>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Previous month"
            disabled={!shown || isFirst || isFetching}
            onClick={() => shown && setMonth(shift(shown, -1))}
          >
            <IconChevronLeft size={18} aria-hidden="true" />
          </ActionIcon>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Next month"
            disabled={!summary || summary.status === 'open' || isFetching}
            onClick={() => shown && setMonth(shift(shown, 1))}
          >
            <IconChevronRight size={18} aria-hidden="true" />
          </ActionIcon>
        </Group>
      }
    >
      {isPending ? (
        <Skeleton height={140} radius="md" role="status" aria-label="Loading the billing summary" />
      ) : error ? (
        <QueryError title="Could not load the billing summary" error={error} onRetry={() => void refetch()} />
      ) : summary.customers.length === 0 ? (
        <Text size="sm" c="dimmed">
          No customer was billed {summary.status === 'open' ? 'this month yet' : 'in this month'}.
        </Text>
      ) : (
        <SummaryTable summary={summary} />
      )}
    </SectionCard>
  );
}

const CUSTOMER_LABELS: Record<keyof ResellerCustomerInput, string> = {
  portalName: 'Portal name',
  timeZone: 'Time zone',
  adminEmail: "Customer admin's email",
};

function NewCustomerDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const create = useCreateCustomer();
  const form = useForm<{ portalName: string; timeZone: string; adminEmail: string }>({
    mode: 'controlled',
    initialValues: { portalName: '', timeZone: 'UTC', adminEmail: '' },
    validate: formResolver(resellerCustomerInputSchema, CUSTOMER_LABELS),
  });
  const { submit } = useFormMutation(form, {
    run: async (values) => {
      const customer = await create.mutateAsync(values);
      notifications.show({
        color: 'teal',
        title: 'Customer portal created',
        message: `${customer.name} is ready; ${customer.ownerEmail} was invited to own it.`,
      });
      form.reset();
      onClose();
    },
    labels: CUSTOMER_LABELS,
    onStatus: { 409: 'adminEmail' },
    otherwise: 'Could not create the portal',
  });
  return (
    <Modal opened={opened} onClose={onClose} title="New customer portal" centered>
      <form onSubmit={submit} noValidate aria-label="New customer portal">
        <Stack gap="md">
          <TextInput
            label={CUSTOMER_LABELS.portalName}
            required
            maxLength={80}
            data-autofocus
            {...form.getInputProps('portalName')}
          />
          <Select
            label={CUSTOMER_LABELS.timeZone}
            searchable
            data={timeZones(form.values.timeZone)}
            {...form.getInputProps('timeZone')}
            onChange={(value) => form.setFieldValue('timeZone', value ?? 'UTC')}
          />
          <TextInput
            label={CUSTOMER_LABELS.adminEmail}
            description="They are invited by mail to choose a password and own the portal."
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            type="email"
            required
            {...form.getInputProps('adminEmail')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending}>
              Create portal
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** A customer's plan standing: paid up, on the free plan, or a paid plan not paid (the shared labels). */
function StandingBadge({ customer }: { customer: ResellerCustomer }) {
  if (customer.current) {
    return (
      <Badge variant="light" color="teal">
        {PORTAL_STANDING_LABELS.active}
      </Badge>
    );
  }
  return customer.plan === 'free' ? (
    <Badge variant="light" color="gray">
      {PORTAL_STANDING_LABELS.free}
    </Badge>
  ) : (
    <Badge variant="light" color="red">
      {PORTAL_STANDING_LABELS.lapsed}
    </Badge>
  );
}

function CustomerRow({
  customer,
  month,
}: {
  customer: ResellerCustomer;
  /** This month so far (the billing summary's running month), once it has loaded. */
  month: BillingSummary | undefined;
}) {
  const navigate = useNavigate();
  const switchPortal = useSwitchPortal();
  const billed = month?.customers.find((row) => row.portalId === customer.portalId);
  const act = () => {
    // "Back to your portal" in the acting banner returns here.
    rememberActingReturn(paths.app.reseller.href());
    switchPortal.mutate(customer.portalId, {
      onSuccess: () => void navigate(paths.app.dashboard.href()),
      onError: (error) =>
        notifications.show({
          color: 'red',
          title: `Could not open ${customer.name}`,
          message: errorMessage(error),
        }),
    });
  };
  return (
    <Group
      component="li"
      justify="space-between"
      gap="sm"
      p="sm"
      wrap="wrap"
      aria-label={customer.name}
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
    >
      <Stack gap={4} style={{ minWidth: 0, flex: '1 1 240px' }}>
        <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
          {customer.name}
        </Text>
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {customer.ownerEmail} · linked {formatDate(customer.linkedAt)}
        </Text>
        <Group gap={6}>
          <Badge variant="light">{PLANS[customer.plan].name}</Badge>
          <StandingBadge customer={customer} />
          <Badge variant="light" color={customer.allowActing ? 'teal' : 'gray'}>
            {customer.allowActing ? 'You may act' : 'Billing only'}
          </Badge>
        </Group>
        <Text size="sm">
          {customer.lockCount === 1 ? '1 lock' : `${customer.lockCount} locks`}
          {month && (
            <>
              {' · This month so far: '}
              <Text span fw={600} size="sm">
                {formatMoney(billed?.billedNetMinor ?? 0, month.currency)}
              </Text>{' '}
              <Text span c="dimmed" size="sm">
                before VAT
              </Text>
            </>
          )}
        </Text>
      </Stack>
      {customer.allowActing && (
        <Button
          variant="light"
          onClick={act}
          loading={switchPortal.isPending}
          aria-label={`Act in this portal: ${customer.name}`}
        >
          Act in this portal
        </Button>
      )}
    </Group>
  );
}

function CustomersCard({ account }: { account: ResellerAccount }) {
  const [opened, { open, close }] = useDisclosure(false);
  // The running month, shared with the summary card's first page (one request for both).
  const { data: month } = useBillingSummary(null);
  const running = month?.status === 'open' ? month : undefined;
  return (
    <SectionCard
      title="Customers"
      description="Portals you created, or whose owner linked them to you with your code."
      aside={
        <Button leftSection={<IconPlus size={16} aria-hidden="true" />} onClick={open}>
          New customer portal
        </Button>
      }
    >
      {account.customers.length === 0 ? (
        <EmptyList
          invite
          icon={<IconBuildingStore size={28} aria-hidden="true" />}
          title="No customers yet"
          description={`Create a portal for a customer, or give an existing one your code ${formatLinkCode(account.reseller.linkCode)} to link on their billing page.`}
        />
      ) : (
        <Stack gap="sm" component="ul" m={0} p={0} style={{ listStyle: 'none' }} aria-label="Customers">
          {account.customers.map((customer) => (
            <CustomerRow key={customer.portalId} customer={customer} month={running} />
          ))}
        </Stack>
      )}
      <NewCustomerDialog opened={opened} onClose={close} />
    </SectionCard>
  );
}

/** /app/reseller: the reseller area (the reseller host lands here): summary, customers, link code. */
export function ResellerPage() {
  const { data: account, error, isPending, refetch } = useResellerAccount();
  if (isPending) {
    return (
      <Stack gap="lg" role="status" aria-label="Loading the reseller area">
        <Skeleton height={34} width="40%" radius="sm" />
        <Skeleton height={200} radius="lg" />
      </Stack>
    );
  }
  if (error) {
    if (isApiError(error) && error.status === 404) {
      return (
        <Stack gap="lg">
          <PageHeader title="Reseller" description="Sell Latchkey portals to your customers." />
          <OpenResellerAccount />
        </Stack>
      );
    }
    return (
      <Stack gap="lg">
        <PageHeader title="Reseller" />
        <Paper p="md" radius="lg">
          <QueryError title="Could not load the reseller area" error={error} onRetry={() => void refetch()} />
        </Paper>
      </Stack>
    );
  }
  const { reseller } = account;
  return (
    <Stack gap="lg">
      <PageHeader
        title={reseller.name}
        description="Your customers' portals, what each is billed, your wholesale cost and your margin."
        aside={
          <Paper withBorder radius="md" px="md" py="xs">
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Your code for customers
            </Text>
            <Text fw={700} fz="lg" ff="monospace">
              {formatLinkCode(reseller.linkCode)}
            </Text>
          </Paper>
        }
      />
      <CustomersCard account={account} />
      <SummaryCard />
      <ResellerBrandCard current={reseller.brand} onSaved={() => void refetch()} />
    </Stack>
  );
}
