import { supportRequestDetailSchema, type SupportRequestDetail } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { supportRoot } from './get-support-requests';

/** GET portal/support/{id}: a request with its images and thread (its person, or its portal's admin). */
export async function getSupportRequest(requestId: string): Promise<SupportRequestDetail> {
  return supportRequestDetailSchema.parse(
    await api.get<unknown>(`portal/support/${encodeURIComponent(requestId)}`),
  );
}

export const supportRequestQueryOptions = (requestId: string) =>
  queryOptions({
    queryKey: [...supportRoot, 'request', requestId] as const,
    queryFn: () => getSupportRequest(requestId),
  });

export function useSupportRequest(requestId: string) {
  return useQuery(supportRequestQueryOptions(requestId));
}
