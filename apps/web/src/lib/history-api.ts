import { auditPageSchema, deviceLogsPageSchema } from '@latchkey/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

/**
 * The history of one lock or one person: the lock events it took part in (GET portal/device/logs)
 * and the admin changes about it (GET portal/audit), both filtered server-side by the subject's
 * id, newest first. Shared by the lock's History tab and the person page.
 */
export interface HistorySubject {
  by: 'deviceId' | 'userId';
  id: string;
}

export const HISTORY_EVENTS_PAGE_SIZE = 20;
export const HISTORY_CHANGES_PAGE_SIZE = 10;

export async function getSubjectEvents(subject: HistorySubject, page: number) {
  return deviceLogsPageSchema.parse(
    await api.get<unknown>('portal/device/logs', {
      query: {
        filterBy: subject.by,
        filterValue: subject.id,
        sortBy: 'occurredAt',
        descending: true,
        skip: (page - 1) * HISTORY_EVENTS_PAGE_SIZE,
        limit: HISTORY_EVENTS_PAGE_SIZE,
      },
    }),
  );
}

export async function getSubjectChanges(subject: HistorySubject, page: number) {
  return auditPageSchema.parse(
    await api.get<unknown>('portal/audit', {
      query: {
        filterBy: subject.by,
        filterValue: subject.id,
        sortBy: 'createdAt',
        descending: true,
        skip: (page - 1) * HISTORY_CHANGES_PAGE_SIZE,
        limit: HISTORY_CHANGES_PAGE_SIZE,
      },
    }),
  );
}

export function useSubjectEvents(subject: HistorySubject, page: number) {
  return useQuery({
    queryKey: ['history', subject.by, subject.id, 'events', page],
    queryFn: () => getSubjectEvents(subject, page),
    placeholderData: keepPreviousData,
    // Locks report all the time: show the latest whenever the history is opened.
    staleTime: 0,
  });
}

export function useSubjectChanges(subject: HistorySubject, page: number) {
  return useQuery({
    // Under the change log's root, so every admin change marks it stale.
    queryKey: ['audit', 'history', subject.by, subject.id, page],
    queryFn: () => getSubjectChanges(subject, page),
    placeholderData: keepPreviousData,
  });
}
