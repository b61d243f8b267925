import { readersListSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { readerKeys } from './query-keys';

/** GET portal/readers (admin): the portal's paired desk readers, with whether each is online. */
export async function getReaders() {
  return readersListSchema.parse(await api.get<unknown>('portal/readers'));
}

export const readersQueryOptions = () => queryOptions({ queryKey: readerKeys.list(), queryFn: getReaders });

/** The list, refreshed every 10 s while on screen: a reader's online state changes on its own. */
export function useReaders({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...readersQueryOptions(), enabled, refetchInterval: 10_000 });
}
