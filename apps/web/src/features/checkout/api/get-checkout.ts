import { checkoutViewSchema, type CheckoutView } from '@latchkey/shared';
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET payments/checkout/{id}?token (the browser holding its token): what became of a checkout. */
export async function getCheckout(checkoutId: string, token: string): Promise<CheckoutView> {
  return checkoutViewSchema.parse(
    await api.get<unknown>(`payments/checkout/${encodeURIComponent(checkoutId)}`, { query: { token } }),
  );
}

/** How long the success page waits for the provider's word before saying it is still coming. */
export const CONFIRMATION_WAIT_MS = 60_000;

/**
 * The checkout, asked again every 1.5 s while it is open: the redirect back from the provider
 * proves nothing; only its webhook completes the checkout.
 */
export function useCheckoutOutcome(checkoutId: string, token: string, startedAt: number) {
  return useQuery({
    queryKey: ['checkout', checkoutId] as const,
    queryFn: () => getCheckout(checkoutId, token),
    enabled: checkoutId !== '' && token !== '',
    refetchInterval: (query) =>
      query.state.data?.status === 'open' && Date.now() - startedAt < CONFIRMATION_WAIT_MS ? 1500 : false,
    retry: 1,
  });
}
