import { rfidCardSchema, type RfidCard, type RfidInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/**
 * POST portal/rfid/{id} (admin): change a card's label, holder or validity (the UID stays). Shared
 * by the portal's card list and the lock's Cards tab.
 */
export async function updateCard({ rfidId, ...input }: RfidInput & { rfidId: string }): Promise<RfidCard> {
  return rfidCardSchema.parse(await api.post<unknown>(`portal/rfid/${encodeURIComponent(rfidId)}`, input));
}

export function useUpdateCard() {
  const queryClient = useQueryClient();
  // A card opens its holder's locks: the locks' card lists and the holders' pages change too.
  return useMutation({ mutationFn: updateCard, onSuccess: () => invalidatePortalData(queryClient) });
}
