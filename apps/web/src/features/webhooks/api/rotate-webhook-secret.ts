import { webhookSecretSchema } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksQueryOptions } from './get-webhooks';

/** POST portal/webhooks/{id}/secret/rotate (admin): a new secret; the old one still signs for 24 h. */
export async function rotateWebhookSecret(id: string) {
  return webhookSecretSchema.parse(
    await api.post<unknown>(`portal/webhooks/${encodeURIComponent(id)}/secret/rotate`),
  );
}

export function useRotateWebhookSecret() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateWebhookSecret,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey }),
  });
}
