import { supportRequestDetailSchema, type SupportRequestDetail } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { supportInboxRoot } from './get-support-inbox';
import { staffSupportRequestQueryOptions } from './get-staff-support-request';

/** POST system/support/{id}/reply (platform staff): the answer, shown in the app and mailed to the person. */
export async function answerSupportRequest({
  requestId,
  message,
}: {
  requestId: string;
  message: string;
}): Promise<SupportRequestDetail> {
  return supportRequestDetailSchema.parse(
    await api.post<unknown>(`system/support/${encodeURIComponent(requestId)}/reply`, { message }),
  );
}

export function useAnswerSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: answerSupportRequest,
    onSuccess: (detail) => {
      queryClient.setQueryData(staffSupportRequestQueryOptions(detail._id).queryKey, detail);
      return queryClient.invalidateQueries({ queryKey: supportInboxRoot });
    },
  });
}
