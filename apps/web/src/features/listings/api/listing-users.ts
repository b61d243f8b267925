import { listingUserSchema } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '@/lib/api-client';
import { listingKeys, listingPath } from './query-keys';

/** PUT listing/{id}/user/{userId}: a person of the portal looks after the listing (gets its requests). */
export function useAddListingUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ listingId, userId }: { listingId: string; userId: string }) =>
      z
        .array(listingUserSchema)
        .parse(await api.put<unknown>(`${listingPath(listingId)}/user/${encodeURIComponent(userId)}`)),
    onSuccess: (_users, { listingId }) =>
      queryClient.invalidateQueries({ queryKey: listingKeys.detail(listingId) }),
  });
}

/** DELETE listing/{id}/user/{userId}. */
export function useRemoveListingUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ listingId, userId }: { listingId: string; userId: string }) =>
      api.delete<null>(`${listingPath(listingId)}/user/${encodeURIComponent(userId)}`),
    onSuccess: (_answer, { listingId }) =>
      queryClient.invalidateQueries({ queryKey: listingKeys.detail(listingId) }),
  });
}
