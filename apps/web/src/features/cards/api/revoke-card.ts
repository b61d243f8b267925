import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/** DELETE portal/rfid/{id} (admin): revoke a card; it opens nothing from now on. */
export async function revokeCard(rfidId: string): Promise<void> {
  await api.delete<unknown>(`portal/rfid/${encodeURIComponent(rfidId)}`);
}

export function useRevokeCard() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: revokeCard, onSuccess: () => invalidatePortalData(queryClient) });
}
