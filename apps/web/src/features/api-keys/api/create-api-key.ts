import { apiKeyCreatedSchema, type ApiKeyCreateInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { apiKeysQueryOptions } from './get-api-keys';

/** POST portal/apikeys (admin): a new key; the answer holds its secret, shown this once. */
export async function createApiKey(input: ApiKeyCreateInput) {
  return apiKeyCreatedSchema.parse(await api.post<unknown>('portal/apikeys', input));
}

export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey }),
  });
}
