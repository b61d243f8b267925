import { clientErrorDetailSchema, type ClientErrorDetail } from '@latchkey/shared';
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { clientErrorsRoot } from './get-client-errors';

/** GET system/errors/{id} (platform staff): one error with its stack. */
export async function getClientError(id: string): Promise<ClientErrorDetail> {
  return clientErrorDetailSchema.parse(await api.get<unknown>(`system/errors/${encodeURIComponent(id)}`));
}

export const clientErrorQueryOptions = (id: string | null) =>
  queryOptions({
    queryKey: [...clientErrorsRoot, 'detail', id] as const,
    queryFn: id ? () => getClientError(id) : skipToken,
  });

export function useClientError(id: string | null) {
  return useQuery(clientErrorQueryOptions(id));
}
