import { platformPortalsPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface PlatformPortalsParams {
  skip: number;
  limit: number;
  /** A portal's name or its owner's email (part of either). */
  search?: string;
  sortBy?: 'name' | 'createdAt' | 'ownerEmail';
  descending?: boolean;
}

/** GET system/portals (platform staff): every portal, with owner, standing, counts and reseller. */
export async function getPlatformPortals(params: PlatformPortalsParams) {
  return platformPortalsPageSchema.parse(await api.get<unknown>('system/portals', { query: { ...params } }));
}

export const platformPortalsQueryOptions = (params: PlatformPortalsParams) =>
  queryOptions({
    queryKey: ['platform', 'portals', params] as const,
    queryFn: () => getPlatformPortals(params),
    placeholderData: keepPreviousData,
  });

export function usePlatformPortals(params: PlatformPortalsParams) {
  return useQuery(platformPortalsQueryOptions(params));
}
