import { webhookEndpointSchema, type WebhookEndpointInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksQueryOptions } from './get-webhooks';

/** POST portal/webhooks (admin): adds an endpoint with a new signing secret. */
export async function createWebhook(input: WebhookEndpointInput) {
  return webhookEndpointSchema.parse(await api.post<unknown>('portal/webhooks', input));
}

export function useCreateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey }),
  });
}
