import { supportPageSchema, type SupportPage, type SupportStatus } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The root of every query about the acting portal's support requests (the person's side). */
export const supportRoot = ['support'] as const;

export const SUPPORT_PAGE_SIZE = 20;

export interface SupportListParams {
  page: number;
  status?: SupportStatus;
  /** A portal admin's own requests only. */
  mine?: boolean;
}

/** GET portal/support: the caller's requests; a portal admin's: the portal's (or their own with `mine`). */
export async function getSupportRequests({ page, status, mine }: SupportListParams): Promise<SupportPage> {
  return supportPageSchema.parse(
    await api.get<unknown>('portal/support', {
      query: {
        skip: (page - 1) * SUPPORT_PAGE_SIZE,
        limit: SUPPORT_PAGE_SIZE,
        status,
        mine: mine ? 'true' : undefined,
      },
    }),
  );
}

export const supportRequestsQueryOptions = (params: SupportListParams) =>
  queryOptions({
    queryKey: [...supportRoot, 'list', params] as const,
    queryFn: () => getSupportRequests(params),
    placeholderData: keepPreviousData,
  });

export function useSupportRequests(params: SupportListParams) {
  return useQuery(supportRequestsQueryOptions(params));
}
