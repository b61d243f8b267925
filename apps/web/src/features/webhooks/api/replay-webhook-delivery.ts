import { webhookDeliverySchema } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** POST portal/webhooks/{id}/deliveries/{deliveryId}/replay (admin): the same message again, now. */
export async function replayWebhookDelivery({ id, deliveryId }: { id: string; deliveryId: string }) {
  return webhookDeliverySchema.parse(
    await api.post<unknown>(
      `portal/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}/replay`,
    ),
  );
}

export function useReplayWebhookDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replayWebhookDelivery,
    onSuccess: (_delivery, { id }) => queryClient.invalidateQueries({ queryKey: ['webhooks', id] }),
  });
}
