import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { api } from '@/lib/api-client';
import type { SupportImageSize } from './get-support-image';
import { supportInboxRoot } from './get-support-inbox';

/** GET system/support/{id}/images/{imageId}/{size} (platform staff): the image's bytes (WebP). */
export async function getStaffSupportImage(requestId: string, imageId: string, size: SupportImageSize) {
  const bytes = await api.get<ArrayBuffer>(
    `system/support/${encodeURIComponent(requestId)}/images/${encodeURIComponent(imageId)}/${size}`,
  );
  return new Blob([bytes], { type: 'image/webp' });
}

/** The image as an object URL for an <img>, released when the component goes away. */
export function useStaffSupportImage(requestId: string, imageId: string, size: SupportImageSize) {
  const query = useQuery({
    queryKey: [...supportInboxRoot, 'image', requestId, imageId, size] as const,
    queryFn: () => getStaffSupportImage(requestId, imageId, size),
    staleTime: Infinity,
  });
  const url = useMemo(() => (query.data ? URL.createObjectURL(query.data) : null), [query.data]);
  useEffect(() => () => (url ? URL.revokeObjectURL(url) : undefined), [url]);
  return { ...query, url };
}
