import { clientErrorPageSchema, type ClientErrorPage, type ClientErrorStatus } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The root of every query of the client error reports. */
export const clientErrorsRoot = ['client-errors'] as const;

export const CLIENT_ERRORS_PAGE_SIZE = 25;

export interface ClientErrorParams {
  page: number;
  status?: ClientErrorStatus;
  search?: string;
}

/** GET system/errors (platform staff): the most recently seen first. */
export async function getClientErrors({ page, ...filters }: ClientErrorParams): Promise<ClientErrorPage> {
  return clientErrorPageSchema.parse(
    await api.get<unknown>('system/errors', {
      query: { skip: (page - 1) * CLIENT_ERRORS_PAGE_SIZE, limit: CLIENT_ERRORS_PAGE_SIZE, ...filters },
    }),
  );
}

export const clientErrorsQueryOptions = (params: ClientErrorParams) =>
  queryOptions({
    queryKey: [...clientErrorsRoot, 'list', params] as const,
    queryFn: () => getClientErrors(params),
    placeholderData: keepPreviousData,
  });

export function useClientErrors(params: ClientErrorParams) {
  return useQuery(clientErrorsQueryOptions(params));
}
