import { contentVersionListSchema, type ContentVersionList } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { contentKeys } from './query-keys';

/** GET content/pages/{topic}/versions (platform staff): every saved version, newest first. */
export async function getContentVersions(topic: string): Promise<ContentVersionList> {
  return contentVersionListSchema.parse(
    await api.get<unknown>(`content/pages/${encodeURIComponent(topic)}/versions`),
  );
}

export const contentVersionsQueryOptions = (topic: string) =>
  queryOptions({ queryKey: contentKeys.versions(topic), queryFn: () => getContentVersions(topic) });

export function useContentVersions(topic: string, enabled = true) {
  return useQuery({ ...contentVersionsQueryOptions(topic), enabled });
}
