import { infoIndexSchema, type InfoIndex } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { contentKeys } from './query-keys';

/** GET info (public): the published pages, without bodies (the help lists). */
export async function getInfoIndex(): Promise<InfoIndex> {
  return infoIndexSchema.parse(await api.get<unknown>('info'));
}

export const infoIndexQueryOptions = () =>
  queryOptions({ queryKey: contentKeys.infoIndex(), queryFn: getInfoIndex, staleTime: 60_000 });

export function useInfoIndex() {
  return useQuery(infoIndexQueryOptions());
}
