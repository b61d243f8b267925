/** Query keys of the billing feature: everything sits under ['billing'] (a portal data root). */
export const billingKeys = {
  all: ['billing'] as const,
  overview: () => ['billing', 'overview'] as const,
  potential: () => ['billing', 'potential'] as const,
  pastBills: () => ['billing', 'pastBills'] as const,
  month: (year: number, month: number) => ['billing', 'month', year, month] as const,
  bill: (billId: string) => ['billing', 'bill', billId] as const,
};

export const billPath = (billId: string) => `portal/billing/bill/${encodeURIComponent(billId)}`;
