import { portalSchema, type Portal, type PortalData } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { sessionQueryKey } from '@/lib/session';

/** POST portal/data (admin): rename the portal or change its time zone. */
export async function updatePortalData(data: PortalData): Promise<Portal> {
  return portalSchema.parse(await api.post<unknown>('portal/data', data));
}

export function useUpdatePortalData() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePortalData,
    onSuccess: async () => {
      // The portal shows in the dashboard, the member list context and the header (session).
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['portal'] }),
        queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      ]);
    },
  });
}
