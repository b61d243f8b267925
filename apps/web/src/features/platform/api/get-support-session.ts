import { portalSupportSessionSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { storage } from '@/lib/storage';

/** GET portal/supportSession: the support session acting in this portal now, if any. */
export async function getPortalSupportSession() {
  return portalSupportSessionSchema.parse(await api.get<unknown>('portal/supportSession'));
}

export const portalSupportSessionQueryOptions = () =>
  queryOptions({
    queryKey: ['portalSupportSession', storage.getPortal()] as const,
    queryFn: getPortalSupportSession,
    // Looked at again now and then: a session may start while the admin has the app open.
    refetchInterval: 60_000,
  });

export function usePortalSupportSession(enabled: boolean) {
  return useQuery({ ...portalSupportSessionQueryOptions(), enabled });
}
