import { orderViewSchema, type OrderView } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST shop/orders/{id}/cancel: gives up an order awaiting payment; its units go back on sale. */
export async function cancelOrder(orderId: string): Promise<OrderView> {
  return orderViewSchema.parse(await api.post<unknown>(`shop/orders/${encodeURIComponent(orderId)}/cancel`));
}

export function useCancelOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelOrder,
    // The orders, and what the shop has on sale again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['shop'] }),
  });
}
