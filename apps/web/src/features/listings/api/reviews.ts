import { reviewSchema, reviewsPageSchema, type ReviewModeration } from '@latchkey/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listingKeys, listingPath, type ReviewsParams } from './query-keys';

/** GET listing/{id}/review (admin): a page of the listing's reviews. */
export function useListingReviews(listingId: string, params: ReviewsParams) {
  return useQuery({
    queryKey: listingKeys.reviews(listingId, params),
    queryFn: async () =>
      reviewsPageSchema.parse(
        await api.get<unknown>(`${listingPath(listingId)}/review`, { query: { ...params } }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** POST listing/{id}/review/{reviewId}: answer, hide or show again. */
export function useModerateReview(listingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ reviewId, action }: { reviewId: string; action: ReviewModeration }) =>
      reviewSchema.parse(
        await api.post<unknown>(`${listingPath(listingId)}/review/${encodeURIComponent(reviewId)}`, action),
      ),
    onSuccess: () =>
      queryClient.invalidateQueries({ queryKey: ['listings', 'detail', listingId, 'reviews'] }),
  });
}
