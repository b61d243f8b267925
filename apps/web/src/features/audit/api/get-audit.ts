import { auditPageSchema, type AuditQuery } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
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

export const HISTORY_CHANGES_PAGE_SIZE = 10;

/** The admin changes about one lock or one person, newest first (a lock's History tab, the person page). */
export const subjectChangesQueryOptions = (
  subject: { by: 'deviceId' | 'userId'; id: string },
  page: number,
) =>
  queryOptions({
    // Under the change log's root, so every admin change marks it stale.
    queryKey: ['audit', 'history', subject.by, subject.id, page],
    queryFn: () =>
      getAudit({
        filterBy: subject.by,
        filterValue: subject.id,
        sortBy: 'createdAt',
        descending: true,
        skip: (page - 1) * HISTORY_CHANGES_PAGE_SIZE,
        limit: HISTORY_CHANGES_PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
  });

export function useSubjectChanges(subject: { by: 'deviceId' | 'userId'; id: string }, page: number) {
  return useQuery(subjectChangesQueryOptions(subject, page));
}

/** The changes of the page shown (from 1), with the page as the screen's own state. */
export function usePagedSubjectChanges(subject: { by: 'deviceId' | 'userId'; id: string }) {
  const [page, setPage] = useState(1);
  const query = useSubjectChanges(subject, page);
  return { query, page, pageSize: HISTORY_CHANGES_PAGE_SIZE, onPage: setPage };
}
