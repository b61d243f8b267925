import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { readerKeys, readerPath } from './query-keys';

/** DELETE portal/reader/{id} (admin): unpair a reader; its secret stops working at once. */
export async function deleteReader(readerId: string): Promise<void> {
  await api.delete<unknown>(readerPath(readerId));
}

export function useDeleteReader() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteReader,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: readerKeys.all }),
  });
}
