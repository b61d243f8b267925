import { clientErrorDetailSchema, type ClientErrorDetail, type ClientErrorStatus } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { clientErrorQueryOptions } from './get-client-error';
import { clientErrorsRoot } from './get-client-errors';

/** POST system/errors/{id} (platform staff): mark resolved, or open again. */
export async function updateClientError({
  id,
  status,
}: {
  id: string;
  status: ClientErrorStatus;
}): Promise<ClientErrorDetail> {
  return clientErrorDetailSchema.parse(
    await api.post<unknown>(`system/errors/${encodeURIComponent(id)}`, { status }),
  );
}

export function useUpdateClientError() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateClientError,
    onSuccess: (detail) => {
      queryClient.setQueryData(clientErrorQueryOptions(detail._id).queryKey, detail);
      return queryClient.invalidateQueries({ queryKey: clientErrorsRoot });
    },
  });
}
