import { activityPageSchema, type ActivityPage } from '@latchkey/shared';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export const ACTIVITY_PAGE_SIZE = 30;

/**
 * GET portal/activity (admin): admin changes and lock events in one feed, newest first; `before`
 * (the previous page's `nextBefore`) asks for older items.
 */
export async function getActivity(before: string | undefined): Promise<ActivityPage> {
  return activityPageSchema.parse(
    await api.get<unknown>('portal/activity', { query: { before, limit: ACTIVITY_PAGE_SIZE } }),
  );
}

export const activityQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: ['activity'] as const,
    queryFn: ({ pageParam }) => getActivity(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
    // Something happens all the time: show the latest whenever the feed is opened.
    staleTime: 0,
  });

export function useActivity() {
  return useInfiniteQuery(activityQueryOptions());
}
