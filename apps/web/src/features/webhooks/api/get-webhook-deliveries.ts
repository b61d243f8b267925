import { webhookDeliveryPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface DeliveryPageQuery {
  skip: number;
  limit: number;
}

/** GET portal/webhooks/{id}/deliveries (admin): the delivery log, newest first, with every attempt. */
export async function getWebhookDeliveries(id: string, query: DeliveryPageQuery) {
  return webhookDeliveryPageSchema.parse(
    await api.get<unknown>(`portal/webhooks/${encodeURIComponent(id)}/deliveries`, { query: { ...query } }),
  );
}

export const webhookDeliveriesQueryOptions = (
  id: string,
  query: DeliveryPageQuery = { skip: 0, limit: 20 },
) =>
  queryOptions({
    queryKey: ['webhooks', id, 'deliveries', query] as const,
    queryFn: () => getWebhookDeliveries(id, query),
    placeholderData: keepPreviousData,
    // Pending deliveries change on their own: the log follows them while it is open.
    refetchInterval: (q) => (q.state.data?.items.some((d) => d.status === 'pending') ? 2000 : false),
  });

export function useWebhookDeliveries(id: string, query: DeliveryPageQuery) {
  return useQuery(webhookDeliveriesQueryOptions(id, query));
}
