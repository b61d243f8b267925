import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/** DELETE portal/rfid/{id} (admin): revoke a card; it opens nothing from now on. */
export async function revokeRfid(rfidId: string): Promise<void> {
  await api.delete<unknown>(`portal/rfid/${encodeURIComponent(rfidId)}`);
}

export function useRevokeRfid() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeRfid, onSuccess: () => invalidatePortalData(queryClient) });
}
