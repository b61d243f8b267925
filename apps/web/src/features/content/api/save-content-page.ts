import { contentPageSchema, type ContentPage, type ContentPageInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { contentKeys } from './query-keys';

/** PUT content/pages/{topic} (platform staff): saves the page as its next version. */
export async function saveContentPage(topic: string, input: ContentPageInput): Promise<ContentPage> {
  return contentPageSchema.parse(await api.put<unknown>(`content/pages/${encodeURIComponent(topic)}`, input));
}

export function useSaveContentPage(topic: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ContentPageInput) => saveContentPage(topic, input),
    // The public page, the lists and the history all change with a save.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contentKeys.all }),
  });
}
