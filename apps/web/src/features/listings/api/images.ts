import { rentalImageSchema, type RentalImageUpdate } from '@latchkey/shared';
import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * Images of a listing (`listing/{id}/image`) or of a lock's arrival instructions
 * (`device/{id}/sharelock/landing/image`): the upload is the file itself.
 */
export function useImageActions(basePath: string, refresh: QueryKey) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: refresh });
  const upload = useMutation({
    mutationFn: async ({ file, alt }: { file: File; alt: string }) =>
      rentalImageSchema.parse(await api.post<unknown>(`${basePath}/image`, file, { query: { alt } })),
    onSuccess,
  });
  const update = useMutation({
    mutationFn: async ({ imageId, ...patch }: RentalImageUpdate & { imageId: string }) =>
      rentalImageSchema.parse(
        await api.post<unknown>(`${basePath}/image/${encodeURIComponent(imageId)}`, patch),
      ),
    onSuccess,
  });
  const remove = useMutation({
    mutationFn: (imageId: string) => api.delete<null>(`${basePath}/image/${encodeURIComponent(imageId)}`),
    onSuccess,
  });
  return { upload, update, remove };
}
