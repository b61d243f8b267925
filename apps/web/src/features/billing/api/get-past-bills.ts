import { pastBillsSchema, type PastBills } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { billingKeys } from './query-keys';

/** GET portal/billing/pastBills (admin): the closed bills, newest first. */
export async function getPastBills(): Promise<PastBills> {
  return pastBillsSchema.parse(await api.get<unknown>('portal/billing/pastBills'));
}

export const pastBillsQueryOptions = () =>
  queryOptions({ queryKey: billingKeys.pastBills(), queryFn: getPastBills });

export function usePastBills() {
  return useQuery(pastBillsQueryOptions());
}
