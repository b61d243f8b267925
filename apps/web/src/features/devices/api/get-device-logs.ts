import { deviceLogsPageSchema, type DeviceLogsQuery } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '@/lib/api-client';

export type DeviceLogsParams = Partial<
  Pick<DeviceLogsQuery, 'skip' | 'limit' | 'sortBy' | 'descending' | 'filterBy' | 'filterValue'>
>;

/** GET portal/device/logs (admin): one page of the portal's lock events. */
export async function getDeviceLogs(params: DeviceLogsParams) {
  return deviceLogsPageSchema.parse(await api.get<unknown>('portal/device/logs', { query: { ...params } }));
}

/** Whose history: a lock's or a person's (the lock's History tab, the person page). */
export interface HistorySubject {
  by: 'deviceId' | 'userId';
  id: string;
}

export const HISTORY_EVENTS_PAGE_SIZE = 20;

/** The lock events one lock or one person took part in, newest first (filtered by the server). */
export const subjectEventsQueryOptions = (subject: HistorySubject, page: number) =>
  queryOptions({
    queryKey: ['history', subject.by, subject.id, 'events', page],
    queryFn: () =>
      getDeviceLogs({
        filterBy: subject.by,
        filterValue: subject.id,
        sortBy: 'occurredAt',
        descending: true,
        skip: (page - 1) * HISTORY_EVENTS_PAGE_SIZE,
        limit: HISTORY_EVENTS_PAGE_SIZE,
      }),
    placeholderData: keepPreviousData,
    // Locks report all the time: show the latest whenever the history is opened.
    staleTime: 0,
  });

export function useSubjectEvents(subject: HistorySubject, page: number) {
  return useQuery(subjectEventsQueryOptions(subject, page));
}

/** The events of the page shown (from 1), with the page as the screen's own state. */
export function usePagedSubjectEvents(subject: HistorySubject) {
  const [page, setPage] = useState(1);
  const query = useSubjectEvents(subject, page);
  return { query, page, pageSize: HISTORY_EVENTS_PAGE_SIZE, onPage: setPage };
}
