import { supportRequestDetailSchema, type SupportRequestDetail } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { supportInboxRoot } from './get-support-inbox';

/** GET system/support/{id} (platform staff): a request of any portal, its images and thread. */
export async function getStaffSupportRequest(requestId: string): Promise<SupportRequestDetail> {
  return supportRequestDetailSchema.parse(
    await api.get<unknown>(`system/support/${encodeURIComponent(requestId)}`),
  );
}

export const staffSupportRequestQueryOptions = (requestId: string) =>
  queryOptions({
    queryKey: [...supportInboxRoot, 'request', requestId] as const,
    queryFn: () => getStaffSupportRequest(requestId),
  });

export function useStaffSupportRequest(requestId: string | null) {
  return useQuery({ ...staffSupportRequestQueryOptions(requestId ?? ''), enabled: requestId !== null });
}
