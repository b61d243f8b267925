import { orderCreatedSchema, type OrderCreated, type OrderInput } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * POST stripe/order: the order at the server's prices, then the provider's checkout page. Signed
 * in, the order is the person's, and a portal admin's locks arrive in their portal.
 */
export async function createOrder(input: OrderInput): Promise<OrderCreated> {
  return orderCreatedSchema.parse(await api.post<unknown>('stripe/order', input));
}

export function useCreateOrder() {
  return useMutation<OrderCreated, unknown, OrderInput>({ mutationFn: createOrder });
}
