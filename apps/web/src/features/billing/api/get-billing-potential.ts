import { billingPotentialSchema, type BillingPotential } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { billingKeys } from './query-keys';

/** GET portal/billingPotential (admin): this month so far and projected to its end. */
export async function getBillingPotential(): Promise<BillingPotential> {
  return billingPotentialSchema.parse(await api.get<unknown>('portal/billingPotential'));
}

export const billingPotentialQueryOptions = () =>
  queryOptions({ queryKey: billingKeys.potential(), queryFn: getBillingPotential });

export function useBillingPotential({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...billingPotentialQueryOptions(), enabled });
}
