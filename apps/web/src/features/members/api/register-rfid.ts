import { rfidCardSchema, type RfidCard, type RfidInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { invalidatePortalData } from '@/lib/query-roots';

/** POST portal/rfid (admin): register a card (409 when the portal has it already). */
export async function registerRfid(input: RfidInput): Promise<RfidCard> {
  return rfidCardSchema.parse(await api.post<unknown>('portal/rfid', input));
}

export function useRegisterRfid() {
  const queryClient = useQueryClient();
  // A card opens its holder's locks: the locks' card lists change too.
  return useMutation({ mutationFn: registerRfid, onSuccess: () => invalidatePortalData(queryClient) });
}
