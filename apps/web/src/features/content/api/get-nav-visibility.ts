import { navVisibilitySchema, type NavVisibility } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { contentKeys } from './query-keys';

/** GET content/nav (public): the navigation entries hidden deployment-wide, by screen address. */
export async function getNavVisibility(): Promise<NavVisibility> {
  return navVisibilitySchema.parse(await api.get<unknown>('content/nav'));
}

export const navVisibilityQueryOptions = () =>
  queryOptions({ queryKey: contentKeys.nav(), queryFn: getNavVisibility, staleTime: 5 * 60_000 });

export function useNavVisibility() {
  return useQuery(navVisibilityQueryOptions());
}
