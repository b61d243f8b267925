import { readerPairedSchema, type ReaderCreate, type ReaderPaired } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { readerKeys } from './query-keys';

/** POST portal/reader (admin): pair a desk reader; its secret comes this once. */
export async function pairReader(input: ReaderCreate): Promise<ReaderPaired> {
  return readerPairedSchema.parse(await api.post<unknown>('portal/reader', input));
}

export function usePairReader() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: pairReader,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: readerKeys.all }),
  });
}
