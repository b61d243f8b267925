import { portalUsersPageSchema, type ListQuery } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export type PortalUsersParams = Partial<
  ListQuery<'email' | 'firstName' | 'lastName' | 'role' | 'status' | 'joinedAt', 'role' | 'status'>
>;

/** The dashboard's "Latest members": the five people who joined last. */
export const LATEST_MEMBERS = { limit: 5, sortBy: 'joinedAt', descending: true } as const;

/** GET portal/users (admin): one page of the portal's members. */
export async function getPortalUsers(params: PortalUsersParams) {
  return portalUsersPageSchema.parse(await api.get<unknown>('portal/users', { query: { ...params } }));
}

export const portalUsersQueryOptions = (params: PortalUsersParams) =>
  queryOptions({
    queryKey: ['portal', 'users', params],
    queryFn: () => getPortalUsers(params),
    placeholderData: keepPreviousData,
  });

export function usePortalUsers(params: PortalUsersParams) {
  return useQuery(portalUsersQueryOptions(params));
}
