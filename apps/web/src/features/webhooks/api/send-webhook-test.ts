import { webhookDeliverySchema } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST portal/webhooks/{id}/test (admin): a webhook.test event to this endpoint, now. */
export async function sendWebhookTest(id: string) {
  return webhookDeliverySchema.parse(
    await api.post<unknown>(`portal/webhooks/${encodeURIComponent(id)}/test`),
  );
}

export function useSendWebhookTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendWebhookTest,
    onSuccess: (_delivery, id) => queryClient.invalidateQueries({ queryKey: ['webhooks', id] }),
  });
}
