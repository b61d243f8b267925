import { supportRequestDetailSchema, type SupportRequestDetail } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { supportRoot } from './get-support-requests';
import { supportRequestQueryOptions } from './get-support-request';

/** POST portal/support/{id}/reply: the person (or their portal's admin) adds a message. */
export async function replySupportRequest({
  requestId,
  message,
}: {
  requestId: string;
  message: string;
}): Promise<SupportRequestDetail> {
  return supportRequestDetailSchema.parse(
    await api.post<unknown>(`portal/support/${encodeURIComponent(requestId)}/reply`, { message }),
  );
}

export function useReplySupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replySupportRequest,
    onSuccess: (detail) => {
      queryClient.setQueryData(supportRequestQueryOptions(detail._id).queryKey, detail);
      return queryClient.invalidateQueries({ queryKey: supportRoot });
    },
  });
}
