import { billDateFact, formatMoney } from '@latchkey/shared';
import type { Bill } from '@latchkey/shared';
import { Badge, Button, Grid, Group, Skeleton, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconDownload, IconPrinter, IconReceiptOff } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { MissingRecord } from '@/components/missing-record';
import { QueryError } from '@/components/query-error';
import { SectionCard } from '@/components/section-card';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/errors';
import { formatDate } from '@/lib/format';
import { useDownloadBillPdf } from '../api/download-bill-pdf';
import { useBillingPotential } from '../api/get-billing-potential';
import { useMonthBill } from '../api/get-month-bill';
import { BillLines, BillTotals } from './bill-lines';
import { billKind, currentMonth, monthName, partyLines } from './bill-text';
import { RecordPage } from '@/components/record-page';

/** The month and year of the path, or null when they are not a month. */
function monthOfParams(params: { year?: string; month?: string }) {
  const year = Number(params.year);
  const month = Number(params.month);
  if (!/^\d{4}$/.test(params.year ?? '') || !/^\d{1,2}$/.test(params.month ?? '')) return null;
  if (month < 1 || month > 12) return null;
  return { year, month };
}

function statusText(bill: Bill): string {
  if (bill.status === 'open') {
    const closes = new Date(Date.UTC(bill.year, bill.month, 1)).toISOString();
    return `Running: counted to ${billDateFact(bill).value}; it closes on ${formatDate(closes, 'UTC')}.`;
  }
  // As the invoice itself writes its date (bill-dates.ts, shared).
  if (bill.invoiceNumber) return `Invoice ${bill.invoiceNumber}, issued ${billDateFact(bill).value}.`;
  return `Closed on ${billDateFact(bill).value} with nothing to pay: no invoice was issued.`;
}

function BillActions({ bill }: { bill: Bill }) {
  const download = useDownloadBillPdf();
  if (bill.status !== 'closed' || !bill._id) return null;
  const save = async () => {
    try {
      await download.mutateAsync(bill);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Could not download the PDF', message: errorMessage(error) });
    }
  };
  return (
    <Group gap="sm">
      <Button
        component={Link}
        to={paths.print.bill.href(bill._id)}
        variant="default"
        leftSection={<IconPrinter size={16} aria-hidden="true" />}
      >
        Printable {bill.invoiceNumber ? 'invoice' : 'statement'}
      </Button>
      <Button
        variant="light"
        leftSection={<IconDownload size={16} aria-hidden="true" />}
        loading={download.isPending}
        onClick={() => void save()}
      >
        Download PDF
      </Button>
    </Group>
  );
}

function Projection({ year, month }: { year: number; month: number }) {
  const { data, error, isPending, refetch } = useBillingPotential();
  if (isPending) return <Skeleton height={90} radius="lg" />;
  if (error)
    return <QueryError title="Could not load the projection" error={error} onRetry={() => void refetch()} />;
  const { projection } = data;
  if (projection.year !== year || projection.month !== month) return null;
  return (
    <SectionCard
      title="Projected to the month’s end"
      description="If today’s locks and plan stay as they are until the month closes."
    >
      <Group gap="xl" wrap="wrap">
        <Stack gap={0}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Net
          </Text>
          <Text fw={600}>{formatMoney(projection.netMinor, projection.currency)}</Text>
        </Stack>
        <Stack gap={0}>
          <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
            Total with VAT
          </Text>
          <Text fw={700} fz="lg">
            {formatMoney(projection.totalMinor, projection.currency)}
          </Text>
        </Stack>
      </Group>
    </SectionCard>
  );
}

function Parties({ bill }: { bill: Bill }) {
  return (
    <Grid gap="lg">
      {(
        [
          ['From', bill.seller],
          ['Bill to', bill.buyer],
        ] as const
      ).map(([label, party]) => (
        <Grid.Col key={label} span={{ base: 12, sm: 6 }}>
          <Stack gap={2}>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              {label}
            </Text>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {party.name}
            </Text>
            {partyLines(party).map((line) => (
              <Text key={line} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {line}
              </Text>
            ))}
          </Stack>
        </Grid.Col>
      ))}
    </Grid>
  );
}

/** A month without a bill: before the portal existed, or still to come. */
function NoBill({ year, month }: { year: number; month: number }) {
  return (
    <Stack align="center" ta="center" gap="md" py={48} px="md" maw={480} mx="auto">
      <ThemeIcon size={56} radius="xl" variant="light" color="gray">
        <IconReceiptOff size={30} stroke={1.6} aria-hidden="true" />
      </ThemeIcon>
      <Title order={1} fz={24}>
        No bill for {monthName(year, month)}
      </Title>
      <Text c="dimmed">The portal did not exist yet in that month, or the month has not begun.</Text>
      <Button
        component={Link}
        to={paths.app.billing.href()}
        leftSection={<IconArrowLeft size={16} aria-hidden="true" />}
      >
        Billing
      </Button>
    </Stack>
  );
}

/** /app/billing/:year/:month (admin): a month's bill, line by line, with the locks behind each line. */
export function MonthBillPage() {
  const params = useParams();
  const period = monthOfParams(params);
  const query = useMonthBill(period?.year ?? 0, period?.month ?? 0, { enabled: period !== null });
  if (!period)
    return <MissingRecord what="This bill" backTo={paths.app.billing.href()} backLabel="Billing" />;

  const now = currentMonth();
  const running = query.data?.status === 'open' && period.year === now.year && period.month === now.month;
  return (
    <RecordPage
      query={query}
      noun="bill"
      back={{ to: paths.app.billing.href(), label: 'Billing' }}
      missing={<NoBill year={period.year} month={period.month} />}
      header={(bill) => ({
        title: `${monthName(bill.year, bill.month)}`,
        description: statusText(bill),
        aside: <BillActions bill={bill} />,
      })}
    >
      {(bill) => (
        <>
          <Group gap={6} mt={-8}>
            <Badge
              size="lg"
              variant="light"
              color={bill.status === 'open' ? 'blue' : bill.invoiceNumber ? 'teal' : 'gray'}
            >
              {billKind(bill)}
            </Badge>
            <Badge size="lg" variant="default">
              Total {formatMoney(bill.totalMinor, bill.currency)}
            </Badge>
          </Group>
          {running && <Projection year={period.year} month={period.month} />}
          <SectionCard
            title="Lines"
            description="One line per plan the portal was on this month. Amounts are lock-days priced pro rata, rounded once per line."
          >
            <BillLines bill={bill} />
          </SectionCard>
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 5 }}>
              <SectionCard title={running ? 'So far' : 'Totals'} h="100%">
                <BillTotals bill={bill} />
              </SectionCard>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 7 }}>
              <SectionCard title="Parties" h="100%">
                <Parties bill={bill} />
              </SectionCard>
            </Grid.Col>
          </Grid>
        </>
      )}
    </RecordPage>
  );
}
