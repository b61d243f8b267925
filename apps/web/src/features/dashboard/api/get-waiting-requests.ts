import { waitingRequestsSchema, type WaitingRequests } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * Under the listings' root on purpose: the live channel's `stay.changed` (a request arrived or was
 * answered) refetches everything under ['listings'], so the badge and the card follow at once.
 */
export const waitingRequestsKey = ['listings', 'waiting'] as const;

/** GET portal/requests/waiting (admin): the stay requests waiting for an answer, oldest first. */
export async function getWaitingRequests(): Promise<WaitingRequests> {
  return waitingRequestsSchema.parse(await api.get<unknown>('portal/requests/waiting'));
}

export const waitingRequestsQueryOptions = () =>
  queryOptions({ queryKey: waitingRequestsKey, queryFn: getWaitingRequests });

export function useWaitingRequests() {
  return useQuery(waitingRequestsQueryOptions());
}
