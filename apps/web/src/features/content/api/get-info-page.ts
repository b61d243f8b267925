import { infoPageSchema, type InfoPage } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { contentKeys } from './query-keys';

/** GET info/{topic} (public): a published page; a draft or unknown topic is a 404. */
export async function getInfoPage(topic: string): Promise<InfoPage> {
  return infoPageSchema.parse(await api.get<unknown>(`info/${encodeURIComponent(topic)}`));
}

export const infoPageQueryOptions = (topic: string) =>
  queryOptions({ queryKey: contentKeys.infoPage(topic), queryFn: () => getInfoPage(topic), retry: false });

export function useInfoPage(topic: string) {
  return useQuery(infoPageQueryOptions(topic));
}
