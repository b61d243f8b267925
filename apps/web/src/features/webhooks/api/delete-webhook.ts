import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { webhooksQueryOptions } from './get-webhooks';

/** DELETE portal/webhooks/{id} (admin): the endpoint and its delivery log. */
export async function deleteWebhook(id: string): Promise<void> {
  await api.delete(`portal/webhooks/${encodeURIComponent(id)}`);
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWebhook,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksQueryOptions().queryKey }),
  });
}
