import {
  calendarChangeSchema,
  icalFeedSchema,
  listingCalendarSchema,
  listingIcalSchema,
  type CalendarAction,
  type IcalFeedInput,
} from '@latchkey/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listingKeys, listingPath } from './query-keys';

const calendarPath = (listingId: string) => `device/${encodeURIComponent(listingId)}/calendar`;
const icalPath = (listingId: string) => `${listingPath(listingId)}/ical`;

/** GET device/{listingId}/calendar: bookings, requests, blocks and access windows from `from` up to `to`. */
export function useListingCalendar(listingId: string, from: string, to: string) {
  return useQuery({
    queryKey: listingKeys.calendar(listingId, from, to),
    queryFn: async () =>
      listingCalendarSchema.parse(await api.get<unknown>(calendarPath(listingId), { query: { from, to } })),
    placeholderData: keepPreviousData,
  });
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
export function useListingIcal(listingId: string) {
  return useQuery({
    queryKey: listingKeys.ical(listingId),
    queryFn: async () => listingIcalSchema.parse(await api.get<unknown>(icalPath(listingId))),
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
