import { navVisibilitySchema, type NavVisibility, type NavVisibilityInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { navVisibilityQueryOptions } from './get-nav-visibility';

/** PUT content/nav (platform staff): hides or shows a navigation entry for everyone. */
export async function setNavVisibility(input: NavVisibilityInput): Promise<NavVisibility> {
  return navVisibilitySchema.parse(await api.put<unknown>('content/nav', input));
}

export function useSetNavVisibility() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setNavVisibility,
    onSuccess: (answer) => queryClient.setQueryData(navVisibilityQueryOptions().queryKey, answer),
  });
}
