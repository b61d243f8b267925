import { supportPageSchema, type SupportPage, type SupportStatus, type SupportType } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** The root of every query of the staff inbox. */
export const supportInboxRoot = ['support-inbox'] as const;

export const INBOX_PAGE_SIZE = 20;

export interface InboxParams {
  page: number;
  status?: SupportStatus;
  type?: SupportType;
  portalId?: string;
  assignee?: 'me' | 'none';
  search?: string;
}

/** GET system/support (platform staff): every portal's requests, filtered, last changed first. */
export async function getSupportInbox({ page, ...filters }: InboxParams): Promise<SupportPage> {
  return supportPageSchema.parse(
    await api.get<unknown>('system/support', {
      query: { skip: (page - 1) * INBOX_PAGE_SIZE, limit: INBOX_PAGE_SIZE, ...filters },
    }),
  );
}

export const supportInboxQueryOptions = (params: InboxParams) =>
  queryOptions({
    queryKey: [...supportInboxRoot, 'list', params] as const,
    queryFn: () => getSupportInbox(params),
    placeholderData: keepPreviousData,
  });

export function useSupportInbox(params: InboxParams) {
  return useQuery(supportInboxQueryOptions(params));
}
