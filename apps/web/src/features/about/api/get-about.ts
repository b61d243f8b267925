import { aboutSchema, type About } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET portal/about (any signed-in person): the product, its version and what this installation runs on. */
export async function getAbout(): Promise<About> {
  return aboutSchema.parse(await api.get<unknown>('portal/about'));
}

export const aboutQueryOptions = () =>
  queryOptions({ queryKey: ['about'] as const, queryFn: getAbout, staleTime: 5 * 60_000 });

export function useAbout() {
  return useQuery(aboutQueryOptions());
}
