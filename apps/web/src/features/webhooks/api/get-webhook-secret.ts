import { webhookSecretSchema } from '@latchkey/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * GET portal/webhooks/{id}/secret (admin): the signing secret, asked for on demand (each reveal is
 * audited), so it is a mutation the button runs rather than a query kept in the cache.
 */
export async function getWebhookSecret(id: string) {
  return webhookSecretSchema.parse(
    await api.get<unknown>(`portal/webhooks/${encodeURIComponent(id)}/secret`, {
      cacheKey: crypto.randomUUID(),
    }),
  );
}

export function useRevealWebhookSecret() {
  return useMutation({ mutationFn: getWebhookSecret });
}
