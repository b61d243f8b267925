import { orderListSchema, type OrderView } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET shop/orders (signed in): the orders the person placed. */
export async function getMyOrders(): Promise<OrderView[]> {
  return orderListSchema.parse(await api.get<unknown>('shop/orders'));
}

export const myOrdersQueryOptions = () =>
  queryOptions({ queryKey: ['shop', 'orders'] as const, queryFn: getMyOrders });

export function useMyOrders() {
  return useQuery(myOrdersQueryOptions());
}
