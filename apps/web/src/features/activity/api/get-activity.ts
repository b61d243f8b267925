import { activityPageSchema, type ActivityFilters, type ActivityPage } from '@latchkey/shared';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const ACTIVITY_PAGE_SIZE = 30;

/**
 * GET portal/activity (admin): admin changes and lock events in one feed, newest first, narrowed by
 * `filters` (a lock, a person, a kind); `before` (the previous page's `nextBefore`) asks for older items.
 */
export async function getActivity(
  before: string | undefined,
  filters: ActivityFilters = {},
): Promise<ActivityPage> {
  return activityPageSchema.parse(
    await api.get<unknown>('portal/activity', {
      query: { before, limit: ACTIVITY_PAGE_SIZE, ...filters },
    }),
  );
}

export const activityQueryOptions = (filters: ActivityFilters = {}) =>
  infiniteQueryOptions({
    queryKey: ['activity', filters] as const,
    queryFn: ({ pageParam }) => getActivity(pageParam, filters),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    // Something happens all the time: show the latest whenever the feed is opened.
    staleTime: 0,
  });

export function useActivity(filters: ActivityFilters = {}) {
  return useInfiniteQuery(activityQueryOptions(filters));
}
