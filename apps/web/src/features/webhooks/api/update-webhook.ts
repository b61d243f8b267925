import { webhookEndpointSchema, type WebhookEndpointPatch } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksQueryOptions } from './get-webhooks';

/** PATCH portal/webhooks/{id} (admin): address, description, events, enabled. */
export async function updateWebhook({ id, patch }: { id: string; patch: WebhookEndpointPatch }) {
  return webhookEndpointSchema.parse(
    await api.request<unknown>('PATCH', `portal/webhooks/${encodeURIComponent(id)}`, { body: patch }),
  );
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey }),
  });
}
