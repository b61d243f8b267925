import { apiKeyRecordSchema } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiKeysQueryOptions } from './get-api-keys';

/** POST portal/apikeys/{id}/revoke (admin): the key stops working at once. */
export async function revokeApiKey(id: string) {
  return apiKeyRecordSchema.parse(
    await api.post<unknown>(`portal/apikeys/${encodeURIComponent(id)}/revoke`, {}),
  );
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey }),
  });
}
