import { webhookEndpointListSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET portal/webhooks (admin): the portal's webhook endpoints, each with its last attempt. */
export async function getWebhooks() {
  return webhookEndpointListSchema.parse(await api.get<unknown>('portal/webhooks'));
}

export const webhooksQueryOptions = () =>
  queryOptions({ queryKey: ['webhooks'] as const, queryFn: getWebhooks });

export function useWebhooks() {
  return useQuery(webhooksQueryOptions());
}
