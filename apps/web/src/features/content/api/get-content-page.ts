import { contentPageSchema, type ContentPage } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { contentKeys } from './query-keys';

/** GET content/pages/{topic} (platform staff): the page as it is now, published or not. */
export async function getContentPage(topic: string): Promise<ContentPage> {
  return contentPageSchema.parse(await api.get<unknown>(`content/pages/${encodeURIComponent(topic)}`));
}

export const contentPageQueryOptions = (topic: string) =>
  queryOptions({
    queryKey: contentKeys.staffPage(topic),
    queryFn: () => getContentPage(topic),
    retry: false,
  });

export function useContentPage(topic: string, enabled = true) {
  return useQuery({ ...contentPageQueryOptions(topic), enabled });
}
