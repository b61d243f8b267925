import { accessRequestPageSchema, type AccessRequestPage, type AccessRequestStatus } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { accessRequests, accessRequestsRoot } from './access-request-collection';

export interface AccessRequestParams {
  status?: AccessRequestStatus;
  /** Which screen asks: its answers are kept apart in the collection cache. */
  screen: 'mine' | 'admin';
}

/**
 * POST accessRequest (the collection's list): an admin gets the portal's requests, anyone else
 * their own, waiting ones first.
 */
export async function getAccessRequests({ status, screen }: AccessRequestParams): Promise<AccessRequestPage> {
  return accessRequestPageSchema.parse(
    await accessRequests.list<unknown>({ limit: 100, ...(status && { status }) }, { cacheKey: screen }),
  );
}

export const accessRequestsQueryOptions = (params: AccessRequestParams) =>
  queryOptions({
    queryKey: [...accessRequestsRoot, 'list', params] as const,
    queryFn: () => getAccessRequests(params),
  });

export function useAccessRequests(params: AccessRequestParams) {
  return useQuery(accessRequestsQueryOptions(params));
}
