import { formatMonth, formatRate, LOCALE, type Bill, type BillLine, type BillParty } from '@latchkey/shared';

/** "November 2026". */
export const monthName = formatMonth;

/** The month (UTC) it is now. */
export function currentMonth(now = new Date()): { year: number; month: number } {
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
}

/** "VAT 19 %", "VAT (reverse charge)". */
export function vatLabel(bill: Pick<Bill, 'vat'>): string {
  if (bill.vat.treatment === 'reverse_charge') return 'VAT (reverse charge)';
  if (bill.vat.treatment === 'outside_eu' || bill.vat.treatment === 'not_registered') return 'VAT';
  return `VAT ${formatRate(bill.vat.rateBp)}`;
}

const countries = new Intl.DisplayNames([LOCALE], { type: 'region' });

/** A country's name from its ISO code ("FR" → "France"). */
export function countryName(code: string): string {
  try {
    return countries.of(code) ?? code;
  } catch {
    return code;
  }
}

/** A party's address block as lines. */
export function partyLines(party: BillParty): string[] {
  return [
    ...party.addressLines,
    ...(party.country ? [countryName(party.country)] : []),
    ...(party.vatNumber ? [`VAT ID ${party.vatNumber}`] : []),
    ...(party.email ? [party.email] : []),
  ];
}

/** "Pro plan, 30 of 30 days". */
export function lineTitle(line: BillLine): string {
  return `${line.planName} plan, ${line.planDays} of ${line.daysInMonth} day${line.daysInMonth === 1 ? '' : 's'}`;
}

/** What kind of document a bill is. */
export function billKind(bill: Pick<Bill, 'status' | 'invoiceNumber' | 'projected'>): string {
  if (bill.status === 'open') return bill.projected ? 'Projection' : 'Running bill';
  return bill.invoiceNumber ? 'Invoice' : 'Statement';
}
