import { queryOptions } from '@tanstack/react-query';
import { getCurrentPortalContext } from '@/lib/portal-override';

/** GET portal/user/portal/current/{id}: the person's place in a portal (403 if they may not act there). */
export const getPortalContext = getCurrentPortalContext;

export const portalContextQueryOptions = (portalId: string) =>
  queryOptions({ queryKey: ['portal', 'context', portalId], queryFn: () => getPortalContext(portalId) });
