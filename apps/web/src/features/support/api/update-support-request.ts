import { supportRequestDetailSchema, type SupportRequestDetail, type SupportUpdate } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { supportInboxRoot } from './get-support-inbox';
import { staffSupportRequestQueryOptions } from './get-staff-support-request';

/** POST system/support/{id} (platform staff): assign and/or change the status. */
export async function updateSupportRequest({
  requestId,
  ...patch
}: SupportUpdate & { requestId: string }): Promise<SupportRequestDetail> {
  return supportRequestDetailSchema.parse(
    await api.post<unknown>(`system/support/${encodeURIComponent(requestId)}`, patch),
  );
}

export function useUpdateSupportRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSupportRequest,
    onSuccess: (detail) => {
      queryClient.setQueryData(staffSupportRequestQueryOptions(detail._id).queryKey, detail);
      return queryClient.invalidateQueries({ queryKey: supportInboxRoot });
    },
  });
}
