import { clientConfigSchema, type ClientConfig } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET about/webConfig (no sign-in): what the deployment tells the web app (the session recorder's script). */
export async function getWebConfig(): Promise<ClientConfig> {
  return clientConfigSchema.parse(await api.get<unknown>('about/webConfig'));
}

export const webConfigQueryOptions = () =>
  queryOptions({ queryKey: ['about', 'webConfig'] as const, queryFn: getWebConfig, staleTime: Infinity });

export function useWebConfig() {
  return useQuery(webConfigQueryOptions());
}
