import { groupsPageSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET portal/groups (admin): the portal's groups by name (up to 200), to choose from when inviting. */
export async function getGroupOptions() {
  return groupsPageSchema.parse(
    await api.get<unknown>('portal/groups', { query: { limit: 200, sortBy: 'name' } }),
  );
}

export const groupOptionsQueryOptions = () =>
  // Under the members root, so portal-data invalidation refreshes it too.
  queryOptions({ queryKey: ['members', 'groupOptions'] as const, queryFn: getGroupOptions });

export function useGroupOptions(enabled = true) {
  return useQuery({ ...groupOptionsQueryOptions(), enabled });
}
