import { adminUsersPageSchema } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface AdminUsersParams {
  skip: number;
  limit: number;
  /** Part of an email or a name. */
  search?: string;
  sortBy?: 'email' | 'name' | 'createdAt';
  descending?: boolean;
}

/** GET system/adminUsers (platform staff): every person across portals, with their portals and roles. */
export async function getAdminUsers(params: AdminUsersParams) {
  return adminUsersPageSchema.parse(await api.get<unknown>('system/adminUsers', { query: { ...params } }));
}

export const adminUsersQueryOptions = (params: AdminUsersParams) =>
  queryOptions({
    queryKey: ['platform', 'adminUsers', params] as const,
    queryFn: () => getAdminUsers(params),
    placeholderData: keepPreviousData,
  });

export function useAdminUsers(params: AdminUsersParams) {
  return useQuery(adminUsersQueryOptions(params));
}
