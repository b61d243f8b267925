import { contentPageSchema, type ContentPage } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { contentKeys } from './query-keys';

/** POST content/pages/{topic}/restore (platform staff): a version becomes the next version. */
export async function restoreContentVersion(topic: string, version: number): Promise<ContentPage> {
  return contentPageSchema.parse(
    await api.post<unknown>(`content/pages/${encodeURIComponent(topic)}/restore`, { version }),
  );
}

export function useRestoreContentVersion(topic: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (version: number) => restoreContentVersion(topic, version),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contentKeys.all }),
  });
}
