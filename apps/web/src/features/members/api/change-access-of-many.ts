import { bulkAccessResultSchema, type BulkAccessInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/**
 * POST portal/users/access (admin): gives or removes one lock or one group for several people in
 * one all-or-nothing request; answers how many changed and the locks that get new credentials.
 */
export async function changeAccessOfMany(input: BulkAccessInput) {
  return bulkAccessResultSchema.parse(await api.post<unknown>('portal/users/access', input));
}

export function useChangeAccessOfMany() {
  const queryClient = useQueryClient();
  // People's locks, the locks' people and their sync state all change: the portal's data is stale.
  return useMutation({ mutationFn: changeAccessOfMany, onSuccess: () => invalidatePortalData(queryClient) });
}
