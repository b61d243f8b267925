import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from '@/lib/api-client';
import { supportRoot } from './get-support-requests';

export type SupportImageSize = 'large' | 'thumb';

/** GET portal/support/{id}/images/{imageId}/{size}: the image's bytes (WebP), behind the session. */
export async function getSupportImage(requestId: string, imageId: string, size: SupportImageSize) {
  const bytes = await api.get<ArrayBuffer>(
    `portal/support/${encodeURIComponent(requestId)}/images/${encodeURIComponent(imageId)}/${size}`,
  );
  return new Blob([bytes], { type: 'image/webp' });
}

/**
 * The image as an object URL for an <img> (an <img src> cannot send the session), released when
 * the component goes away.
 */
export function useSupportImage(requestId: string, imageId: string, size: SupportImageSize) {
  const query = useQuery({
    queryKey: [...supportRoot, 'image', requestId, imageId, size] as const,
    queryFn: () => getSupportImage(requestId, imageId, size),
    staleTime: Infinity,
  });
  const url = useMemo(() => (query.data ? URL.createObjectURL(query.data) : null), [query.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return { ...query, url };
}
