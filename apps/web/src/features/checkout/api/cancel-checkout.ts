import { checkoutViewSchema, type CheckoutView } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST payments/checkout/{id}/cancel: the buyer turned back; what it held is released. */
export async function cancelCheckout(checkoutId: string, token: string): Promise<CheckoutView> {
  return checkoutViewSchema.parse(
    await api.post<unknown>(`payments/checkout/${encodeURIComponent(checkoutId)}/cancel`, { token }),
  );
}

export function useCancelCheckout() {
  return useMutation<CheckoutView, unknown, { checkoutId: string; token: string }>({
    mutationFn: ({ checkoutId, token }) => cancelCheckout(checkoutId, token),
  });
}
