import { billSchema, type Bill } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { billingKeys } from './query-keys';

/** GET portal/billing/{year}/{month} (admin): the month's bill, as issued or so far. */
export async function getMonthBill(year: number, month: number): Promise<Bill> {
  return billSchema.parse(await api.get<unknown>(`portal/billing/${year}/${month}`));
}

export const monthBillQueryOptions = (year: number, month: number) =>
  queryOptions({ queryKey: billingKeys.month(year, month), queryFn: () => getMonthBill(year, month) });

export function useMonthBill(year: number, month: number, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...monthBillQueryOptions(year, month), enabled });
}
