import { readerSchema, type Reader, type ReaderUpdate } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { readerKeys, readerPath } from './query-keys';

/** POST portal/reader/{id} (admin): rename a reader, or say what it reads. */
export async function updateReader({
  readerId,
  ...input
}: ReaderUpdate & { readerId: string }): Promise<Reader> {
  return readerSchema.parse(await api.post<unknown>(readerPath(readerId), input));
}

export function useUpdateReader() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateReader,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: readerKeys.all }),
  });
}
