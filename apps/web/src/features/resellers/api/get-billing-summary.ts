import { billingSummarySchema, type BillingSummary } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { resellerKeys } from './query-keys';

/**
 * GET reseller/billingSummary (this month so far) or reseller/billingSummary/{year}/{month}: per
 * customer, billed, wholesale cost and margin.
 */
export async function getBillingSummary(
  month: { year: number; month: number } | null,
): Promise<BillingSummary> {
  const path = month ? `reseller/billingSummary/${month.year}/${month.month}` : 'reseller/billingSummary';
  return billingSummarySchema.parse(await api.get<unknown>(path));
}

export const billingSummaryQueryOptions = (month: { year: number; month: number } | null) =>
  queryOptions({
    queryKey: resellerKeys.summary(month?.year ?? null, month?.month ?? null),
    queryFn: () => getBillingSummary(month),
  });

export function useBillingSummary(month: { year: number; month: number } | null, enabled = true) {
  return useQuery({ ...billingSummaryQueryOptions(month), enabled, placeholderData: keepPreviousData });
}
