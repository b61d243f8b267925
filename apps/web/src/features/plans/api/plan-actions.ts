import {
  cardPortalSchema,
  checkoutStartedSchema,
  portalSubscriptionSchema,
  type CheckoutStarted,
  type PlanId,
  type PortalSubscription,
  type PrepaidCheckoutInput,
} from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { subscriptionRoot } from './get-subscription';

type PaidPlan = Exclude<PlanId, 'free'>;

/** POST portal/subscription/checkout (gopro, upgrade): the provider's page for a subscription. */
export async function startSubscription(plan: PaidPlan): Promise<CheckoutStarted> {
  return checkoutStartedSchema.parse(await api.post<unknown>('portal/subscription/checkout', { plan }));
}

/** POST portal/subscription/plan: the running subscription moves to another plan. */
export async function changePlan(plan: PaidPlan): Promise<PortalSubscription> {
  return portalSubscriptionSchema.parse(await api.post<unknown>('portal/subscription/plan', { plan }));
}

/** POST portal/subscription/prepaid (upgradeLegacy): the provider's card page for a period. */
export async function startPrepaid(input: PrepaidCheckoutInput): Promise<CheckoutStarted> {
  return checkoutStartedSchema.parse(await api.post<unknown>('portal/subscription/prepaid', input));
}

/** DELETE stripe/cancel (cancel at the end of the period) or POST portal/subscription/resume. */
export async function setCanceling(cancel: boolean): Promise<PortalSubscription> {
  return portalSubscriptionSchema.parse(
    cancel
      ? await api.delete<unknown>('stripe/cancel')
      : await api.post<unknown>('portal/subscription/resume'),
  );
}

/** POST portal/subscription/free: a lapsed portal goes back to the free plan instead of paying. */
export async function moveToFree(): Promise<PortalSubscription> {
  return portalSubscriptionSchema.parse(await api.post<unknown>('portal/subscription/free'));
}

export function useMoveToFree() {
  const queryClient = useQueryClient();
  return useMutation<PortalSubscription, unknown, void>({
    mutationFn: moveToFree,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionRoot }),
  });
}

/** POST portal/subscription/card: the provider's page for changing the card. */
export async function cardPortal(): Promise<{ url: string }> {
  return cardPortalSchema.parse(await api.post<unknown>('portal/subscription/card'));
}

/** Leaves for the provider's page (checkout or card). */
export function goToProvider(url: string): void {
  window.location.assign(url);
}

export function useStartSubscription() {
  return useMutation<CheckoutStarted, unknown, PaidPlan>({
    mutationFn: startSubscription,
    onSuccess: ({ url }) => goToProvider(url),
  });
}

export function useStartPrepaid() {
  return useMutation<CheckoutStarted, unknown, PrepaidCheckoutInput>({
    mutationFn: startPrepaid,
    onSuccess: ({ url }) => goToProvider(url),
  });
}

export function useChangePlan() {
  const queryClient = useQueryClient();
  return useMutation<PortalSubscription, unknown, PaidPlan>({
    mutationFn: changePlan,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionRoot }),
  });
}

export function useSetCanceling() {
  const queryClient = useQueryClient();
  return useMutation<PortalSubscription, unknown, boolean>({
    mutationFn: setCanceling,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: subscriptionRoot }),
  });
}

export function useCardPortal() {
  return useMutation<{ url: string }, unknown, void>({
    mutationFn: cardPortal,
    onSuccess: ({ url }) => goToProvider(url),
  });
}
