import { listingSchema, listingsPageSchema, type Listing, type ListingInput } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listingKeys, listingPath, type ListingsParams } from './query-keys';

/** GET listing (admin): one page of the portal's listings. */
export async function getListings(params: ListingsParams) {
  return listingsPageSchema.parse(await api.get<unknown>('listing', { query: { ...params } }));
}

export function useListings(params: ListingsParams) {
  return useQuery({
    queryKey: listingKeys.list(params),
    queryFn: () => getListings(params),
    placeholderData: keepPreviousData,
  });
}

/** GET listing/{id} (admin). */
export async function getListing(listingId: string): Promise<Listing> {
  return listingSchema.parse(await api.get<unknown>(listingPath(listingId)));
}

export const listingQueryOptions = (listingId: string) =>
  queryOptions({ queryKey: listingKeys.detail(listingId), queryFn: () => getListing(listingId) });

export function useListing(listingId: string, { enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...listingQueryOptions(listingId), enabled });
}

/** POST listing/new or POST listing/{id}: every field. */
export async function saveListing({ listingId, ...input }: ListingInput & { listingId: string | null }) {
  const path = listingId ? listingPath(listingId) : 'listing/new';
  return listingSchema.parse(await api.post<unknown>(path, input));
}

export function useSaveListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveListing,
    onSuccess: async (listing) => {
      queryClient.setQueryData(listingKeys.detail(listing._id), listing);
      await queryClient.invalidateQueries({ queryKey: listingKeys.all });
    },
  });
}

/** DELETE listing/{id} (409 while it has stays that have not ended). */
export function useDeleteListing() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (listingId: string) => api.delete<null>(listingPath(listingId)),
    onSuccess: async (_answer, listingId) => {
      queryClient.removeQueries({ queryKey: listingKeys.detail(listingId) });
      await queryClient.invalidateQueries({ queryKey: ['listings', 'list'] });
    },
  });
}
