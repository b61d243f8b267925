import { apiKeyListSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET portal/apikeys (admin): the portal's API keys, never their secrets. */
export async function getApiKeys() {
  return apiKeyListSchema.parse(await api.get<unknown>('portal/apikeys'));
}

export const apiKeysQueryOptions = () =>
  queryOptions({ queryKey: ['api-keys'] as const, queryFn: getApiKeys });

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}
