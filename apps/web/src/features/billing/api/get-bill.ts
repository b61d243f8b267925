import { billSchema, type Bill } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { billingKeys, billPath } from './query-keys';

/** GET portal/billing/bill/{id} (admin): a closed bill as it was issued. */
export async function getBill(billId: string): Promise<Bill> {
  return billSchema.parse(await api.get<unknown>(billPath(billId)));
}

export const billQueryOptions = (billId: string) =>
  queryOptions({ queryKey: billingKeys.bill(billId), queryFn: () => getBill(billId) });

export function useBill(billId: string) {
  return useQuery(billQueryOptions(billId));
}
