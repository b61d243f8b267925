import { portalBrandSchema, type PortalBrand } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { contentKeys } from './query-keys';

/** GET content/brand (signed in): the brand of the portal the person acts in; null: the host's. */
export async function getPortalBrand(): Promise<PortalBrand> {
  return portalBrandSchema.parse(await api.get<unknown>('content/brand'));
}

export const portalBrandQueryOptions = () =>
  queryOptions({ queryKey: contentKeys.brand(), queryFn: getPortalBrand, staleTime: 5 * 60_000 });

export function usePortalBrand() {
  return useQuery(portalBrandQueryOptions());
}
