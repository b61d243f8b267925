import { supportRequestDetailSchema, type SupportRequestDetail, type SupportType } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { supportRoot } from './get-support-requests';

export interface NewSupportRequest {
  type: SupportType;
  description: string;
  navId: string;
  images: File[];
}

/** POST portal/support: the fields and the images as multipart/form-data. */
export async function fileSupportRequest(input: NewSupportRequest): Promise<SupportRequestDetail> {
  const form = new FormData();
  form.append('type', input.type);
  form.append('description', input.description);
  form.append('navId', input.navId);
  for (const image of input.images) form.append('images', image, image.name);
  return supportRequestDetailSchema.parse(await api.post<unknown>('portal/support', form));
}

export function useFileSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fileSupportRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportRoot }),
  });
}
