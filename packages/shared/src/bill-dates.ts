import type { Bill, BillLock } from './billing.schemas';
import { formatCalendarRange, formatDate, formatDateTime, formatMonth } from './time-format';

// The dates of a bill in words, one source for the printed page (web) and the PDF (server), so the
// two documents of one invoice never disagree. A bill is counted on UTC days and closes at the
// UTC month boundary (docs/decisions.md, bills), so its dates are read in UTC: the issue date then
// falls in the period it closes, wherever the portal is. A time is labelled "UTC".

/** The document's date: when it was issued, or, for a running bill, when it was counted to. */
export function billDateFact(bill: Pick<Bill, 'issuedAt' | 'asOf'>): { label: string; value: string } {
  return bill.issuedAt
    ? { label: 'Date', value: formatDate(bill.issuedAt, 'UTC') }
    : { label: 'As of', value: formatDateTime(bill.asOf, 'UTC', { zone: true }) };
}

/** "Sep 1, 2025 – Sep 30, 2025 (September 2025)". */
export function billPeriodText(bill: Pick<Bill, 'periodStart' | 'periodEnd' | 'year' | 'month'>): string {
  return `${formatCalendarRange(bill.periodStart, bill.periodEnd)} (${formatMonth(bill.year, bill.month)})`;
}

/** "20 days, Sep 11, 2025 – Sep 30, 2025": the days a lock was counted. */
export function billLockDaysText(lock: Pick<BillLock, 'days' | 'firstDay' | 'lastDay'>): string {
  return `${lock.days} day${lock.days === 1 ? '' : 's'}, ${formatCalendarRange(lock.firstDay, lock.lastDay)}`;
}
