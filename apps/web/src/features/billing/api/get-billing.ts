import { billingOverviewSchema, type BillingOverview } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { billingKeys } from './query-keys';

/** GET portal/billing (admin): plan, billing details, reseller, this month in totals, recent bills. */
export async function getBilling(): Promise<BillingOverview> {
  return billingOverviewSchema.parse(await api.get<unknown>('portal/billing'));
}

export const billingQueryOptions = () =>
  queryOptions({ queryKey: billingKeys.overview(), queryFn: getBilling });

export function useBilling() {
  return useQuery(billingQueryOptions());
}
