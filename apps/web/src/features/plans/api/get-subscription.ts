import { portalSubscriptionSchema, type PortalSubscription } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The root of every query about the portal's plan and payments. */
export const subscriptionRoot = ['subscription'] as const;

/** GET portal/subscription (admins): the plan, standing and subscription of the acting portal. */
export async function getSubscription(): Promise<PortalSubscription> {
  return portalSubscriptionSchema.parse(await api.get<unknown>('portal/subscription'));
}

export const subscriptionQueryOptions = (portalId: string | null) =>
  queryOptions({
    queryKey: [...subscriptionRoot, portalId] as const,
    queryFn: getSubscription,
    staleTime: 30_000,
  });

export function useSubscription(portalId: string | null, enabled = true) {
  return useQuery({ ...subscriptionQueryOptions(portalId), enabled: enabled && portalId !== null });
}

/** Provider statuses that mean the last payment failed. */
export const FAILING_STATUSES: readonly string[] = ['past_due', 'unpaid', 'incomplete'];
