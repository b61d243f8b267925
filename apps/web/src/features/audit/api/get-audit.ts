import { auditPageSchema, type AuditQuery } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type AuditParams = Partial<
  Pick<
    AuditQuery,
    'skip' | 'limit' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue' | 'fromDate' | 'toDate'
  >
>;

/** GET portal/audit (admin): one page of the admin change log, newest first by default. */
export async function getAudit(params: AuditParams) {
  return auditPageSchema.parse(await api.get<unknown>('portal/audit', { query: { ...params } }));
}

export const auditQueryOptions = (params: AuditParams) =>
  queryOptions({
    queryKey: ['audit', params],
    queryFn: () => getAudit(params),
    placeholderData: keepPreviousData,
    // Every admin change adds an entry: show the latest whenever the log is opened.
    staleTime: 0,
  });

export function useAudit(params: AuditParams) {
  return useQuery(auditQueryOptions(params));
}
