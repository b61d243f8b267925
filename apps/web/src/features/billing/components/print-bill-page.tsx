import { billDateFact, billLockDaysText, billPeriodText, formatMoney } from '@latchkey/shared';
import type { Bill } from '@latchkey/shared';
import { Button, Center, Group, Loader, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconDownload, IconPrinter } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { BackLink } from '@/components/back-link';
import { MissingRecord } from '@/components/missing-record';
import { QueryError } from '@/components/query-error';
import { paths } from '@/config/paths';
import { isApiError } from '@/lib/api-client';
import { errorMessage } from '@/lib/errors';
import { useDownloadBillPdf } from '../api/download-bill-pdf';
import { useBill } from '../api/get-bill';
import { billKind, lineTitle, monthName, partyLines, vatLabel } from './bill-text';
import classes from './print-bill.module.css';

function Party({ label, party }: { label: string; party: Bill['buyer'] }) {
  return (
    <div>
      <p className={classes.label}>{label}</p>
      <strong>{party.name}</strong>
      {partyLines(party).map((line) => (
        <div key={line}>{line}</div>
      ))}
    </div>
  );
}

/** The bill as a document: what the browser prints and the PDF shows. */
export function BillDocument({ bill }: { bill: Bill }) {
  const kind = billKind(bill);
  return (
    <article
      className={classes.sheet}
      aria-label={bill.invoiceNumber ? `Invoice ${bill.invoiceNumber}` : kind}
    >
      <header className={classes.head}>
        <div className={classes.seller}>
          <p className={classes.sellerName}>{bill.seller.name}</p>
          {partyLines(bill.seller).map((line) => (
            <div key={line}>{line}</div>
          ))}
        </div>
        <div className={classes.title}>
          <h1>{kind}</h1>
          <dl className={classes.facts}>
            {bill.invoiceNumber && (
              <>
                <dt>Invoice number</dt>
                <dd>{bill.invoiceNumber}</dd>
              </>
            )}
            {/* The same words as the PDF (bill-dates.ts, shared): one invoice, one format. */}
            <dt>{billDateFact(bill).label}</dt>
            <dd>{billDateFact(bill).value}</dd>
            <dt>Period</dt>
            <dd>{billPeriodText(bill)}</dd>
            <dt>Portal</dt>
            <dd>{bill.portalName}</dd>
          </dl>
        </div>
      </header>

      <section className={classes.buyer} aria-label="Bill to">
        <Party label="Bill to" party={bill.buyer} />
        {bill.status === 'closed' && !bill.invoiceNumber && (
          <p>Nothing to pay for {monthName(bill.year, bill.month)}: no invoice number was issued.</p>
        )}
      </section>

      <table className={classes.lines}>
        <caption className={classes.label} style={{ textAlign: 'left' }}>
          {monthName(bill.year, bill.month)}: every lock counts on each UTC day at whose end it existed
        </caption>
        <thead>
          <tr>
            <th scope="col">Description</th>
            <th scope="col" className={classes.number}>
              Lock-days
            </th>
            <th scope="col" className={classes.number}>
              Per lock-month
            </th>
            <th scope="col" className={classes.number}>
              Amount
            </th>
          </tr>
        </thead>
        {bill.lines.map((line) => (
          <tbody key={line.plan} className={classes.line}>
            <tr>
              <th scope="row">{lineTitle(line)}</th>
              <td className={classes.number}>{line.billableLockDays}</td>
              <td className={classes.number}>{formatMoney(line.unitPriceMinor, bill.currency)}</td>
              <td className={classes.number}>{formatMoney(line.amountMinor, bill.currency)}</td>
            </tr>
            <tr className={classes.detail}>
              <td colSpan={4}>
                {line.explanation}
                {line.locks.length > 0 && (
                  <ul className={classes.locks} aria-label={`Locks on the ${line.planName} plan`}>
                    {line.locks.map((lock) => (
                      <li key={lock.deviceId}>
                        {lock.name}
                        {lock.deleted ? ' (deleted since)' : ''}: {billLockDaysText(lock)}
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          </tbody>
        ))}
      </table>
      {bill.lines.length === 0 && <p>No locks this month.</p>}

      <table className={classes.totals} aria-label="Totals">
        <tbody>
          <tr>
            <th scope="row">Net</th>
            <td>{formatMoney(bill.netMinor, bill.currency)}</td>
          </tr>
          <tr>
            <th scope="row">{vatLabel(bill)}</th>
            <td>{formatMoney(bill.vatMinor, bill.currency)}</td>
          </tr>
          <tr className={classes.total}>
            <th scope="row">Total</th>
            <td>{formatMoney(bill.totalMinor, bill.currency)}</td>
          </tr>
        </tbody>
      </table>
      <p className={classes.note}>{bill.vat.note}</p>
      <p className={classes.note}>
        Amounts in {bill.currency}, before VAT per line, each line rounded once. Each day is priced on the
        plan in force at its end.
      </p>
    </article>
  );
}

/** /print/bill/:historyId (admin): a closed bill as a printable document, with its PDF. */
export function PrintBillPage() {
  const { historyId = '' } = useParams();
  const { data: bill, error, isPending, refetch } = useBill(historyId);
  const download = useDownloadBillPdf();

  if (isPending) {
    return (
      <Center mih="60dvh">
        <Loader aria-label="Loading the bill" />
      </Center>
    );
  }
  if (error) {
    if (isApiError(error) && error.status === 404) {
      return <MissingRecord what="This bill" backTo={paths.app.billing.href()} backLabel="Billing" />;
    }
    return (
      <Stack p="md" maw={720} mx="auto">
        <QueryError title="Could not load the bill" error={error} onRetry={() => void refetch()} />
      </Stack>
    );
  }

  const save = async () => {
    try {
      await download.mutateAsync(bill);
    } catch (failure) {
      notifications.show({
        color: 'red',
        title: 'Could not download the PDF',
        message: errorMessage(failure),
      });
    }
  };
  return (
    <div className={classes.page}>
      <Group className={classes.toolbar} justify="space-between" gap="sm">
        <BackLink
          to={paths.app.monthBill.href(bill.year, bill.month)}
          label={monthName(bill.year, bill.month)}
        />
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconPrinter size={16} aria-hidden="true" />}
            onClick={() => window.print()}
          >
            Print
          </Button>
          <Button
            leftSection={<IconDownload size={16} aria-hidden="true" />}
            loading={download.isPending}
            onClick={() => void save()}
          >
            Download PDF
          </Button>
        </Group>
      </Group>
      <BillDocument bill={bill} />
    </div>
  );
}
