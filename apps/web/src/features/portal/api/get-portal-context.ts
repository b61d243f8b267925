import { portalContextSchema, type PortalContext } from '@latchkey/shared';
import { queryOptions } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET portal/user/portal/current/{id}: the person's place in a portal (403 if they may not act there). */
export async function getPortalContext(portalId: string): Promise<PortalContext> {
  const answer = await api.get<unknown>(`portal/user/portal/current/${encodeURIComponent(portalId)}`);
  return portalContextSchema.parse(answer);
}

export const portalContextQueryOptions = (portalId: string) =>
  queryOptions({ queryKey: ['portal', 'context', portalId], queryFn: () => getPortalContext(portalId) });
