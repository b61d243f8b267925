import { accessListEntrySchema, type AccessListEntryInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { listingKeys, listingPath } from './query-keys';

/** POST listing/{id}/accessList/new or …/{entryId}: current and upcoming stays follow at once. */
async function saveEntry({
  listingId,
  entryId,
  ...input
}: AccessListEntryInput & { listingId: string; entryId: string | null }) {
  const path = `${listingPath(listingId)}/accessList/${entryId ? encodeURIComponent(entryId) : 'new'}`;
  return accessListEntrySchema.parse(await api.post<unknown>(path, input));
}

export function useSaveAccessListEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveEntry,
    onSuccess: (_entry, { listingId }) =>
      queryClient.invalidateQueries({ queryKey: listingKeys.detail(listingId) }),
  });
}

export function useDeleteAccessListEntry() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ listingId, entryId }: { listingId: string; entryId: string }) =>
      api.delete<null>(`${listingPath(listingId)}/accessList/${encodeURIComponent(entryId)}`),
    onSuccess: (_answer, { listingId }) =>
      queryClient.invalidateQueries({ queryKey: listingKeys.detail(listingId) }),
  });
}
