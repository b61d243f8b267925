import {
  calendarChangeSchema,
  icalFeedSchema,
  listingCalendarSchema,
  listingIcalSchema,
  type CalendarAction,
  type IcalFeedInput,
} from '@latchkey/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listingKeys, listingPath } from './query-keys';

const calendarPath = (listingId: string) => `device/${encodeURIComponent(listingId)}/calendar`;
const icalPath = (listingId: string) => `${listingPath(listingId)}/ical`;

/** A calendar month, `YYYY-MM`. */
export const monthOf = (date: string) => date.slice(0, 7);
export const firstOf = (month: string) => `${month}-01`;
export function addMonths(month: string, count: number): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (m - 1) + count;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}
/** The month the calendar opens on: the current one (by the UTC date). */
export const currentMonth = () => monthOf(new Date().toISOString().slice(0, 10));

/** GET device/{listingId}/calendar: bookings, requests, blocks and access windows of one month. */
export const listingCalendarQueryOptions = (listingId: string, month: string) => {
  const from = firstOf(month);
  const to = firstOf(addMonths(month, 1));
  return queryOptions({
    queryKey: listingKeys.calendar(listingId, from, to),
    queryFn: async () =>
      listingCalendarSchema.parse(await api.get<unknown>(calendarPath(listingId), { query: { from, to } })),
  });
};

export function useListingCalendar(listingId: string, month: string) {
  return useQuery({ ...listingCalendarQueryOptions(listingId, month), placeholderData: keepPreviousData });
}

/** POST device/{listingId}/calendar: block nights, or open a block again. */
export function useCalendarAction(listingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (action: CalendarAction) =>
      calendarChangeSchema.parse(await api.post<unknown>(calendarPath(listingId), action)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listingKeys.detail(listingId) }),
  });
}

/** While a read runs in the background, the feeds are read again this often. */
const SYNCING_REFRESH_MS = 2000;

/**
 * GET listing/{id}/ical: the export feed's address and the imported calendars; read again every
 * two seconds while one of them is being read (reads run in the server's background job).
 */
export const listingIcalQueryOptions = (listingId: string) =>
  queryOptions({
    queryKey: listingKeys.ical(listingId),
    queryFn: async () => listingIcalSchema.parse(await api.get<unknown>(icalPath(listingId))),
  });

export function useListingIcal(listingId: string) {
  return useQuery({
    ...listingIcalQueryOptions(listingId),
    refetchInterval: (query) =>
      query.state.data?.feeds.some((feed) => feed.syncing) ? SYNCING_REFRESH_MS : false,
  });
}

/** POST listing/{id}/ical/rotate: a new export address; the old one stops. */
export function useRotateIcal(listingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      listingIcalSchema.parse(await api.post<unknown>(`${icalPath(listingId)}/rotate`, {})),
    onSuccess: (ical) => queryClient.setQueryData(listingKeys.ical(listingId), ical),
  });
}

/** POST listing/{id}/ical/feed/new. */
export function useAddFeed(listingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: IcalFeedInput) =>
      icalFeedSchema.parse(await api.post<unknown>(`${icalPath(listingId)}/feed/new`, input)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listingKeys.ical(listingId) }),
  });
}

/** DELETE listing/{id}/ical/feed/{feedId}: its stays stay. */
export function useRemoveFeed(listingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (feedId: string) =>
      api.delete<null>(`${icalPath(listingId)}/feed/${encodeURIComponent(feedId)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listingKeys.detail(listingId) }),
  });
}

/**
 * POST listing/{id}/ical/feed/{feedId}/sync: queues a read (acceptEmpty: apply an empty calendar);
 * the server answers at once with the feed `syncing`, and the feed shows the outcome when it ends.
 */
export function useSyncFeed(listingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ feedId, acceptEmpty = false }: { feedId: string; acceptEmpty?: boolean }) =>
      icalFeedSchema.parse(
        await api.post<unknown>(`${icalPath(listingId)}/feed/${encodeURIComponent(feedId)}/sync`, {
          acceptEmpty,
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listingKeys.detail(listingId) }),
  });
}
