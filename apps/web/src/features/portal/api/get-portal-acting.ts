import { portalActingSchema, type PortalActing } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * GET portal/acting: why the person acts in the portal the request acts in (their membership, as
 * the portal's reseller, or as platform staff), as the server decided it. The acting banner asks
 * only while a portal override is stored: without one a person acts through a membership.
 */
export async function getPortalActing(): Promise<PortalActing> {
  return portalActingSchema.parse(await api.get<unknown>('portal/acting'));
}

/** Keyed by the override, so a switch to another portal asks again. */
export const portalActingQueryOptions = (overridePortalId: string) =>
  queryOptions({
    queryKey: ['portal', 'acting', overridePortalId],
    queryFn: getPortalActing,
    staleTime: 60_000,
  });

export function usePortalActing(overridePortalId: string | null) {
  return useQuery({
    ...portalActingQueryOptions(overridePortalId ?? ''),
    enabled: overridePortalId !== null,
  });
}
