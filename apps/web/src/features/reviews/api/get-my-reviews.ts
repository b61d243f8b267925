import { myReviewsSchema, type MyReviews } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * GET reviews/mine (any signed-in person): the stays they may review, the reviews they wrote, and
 * for an admin of the portal they act in its listings' reviews.
 */
export async function getMyReviews(): Promise<MyReviews> {
  return myReviewsSchema.parse(await api.get<unknown>('reviews/mine'));
}

export const myReviewsQueryOptions = () =>
  queryOptions({ queryKey: ['reviews', 'mine'] as const, queryFn: getMyReviews });

export function useMyReviews() {
  return useQuery(myReviewsQueryOptions());
}
