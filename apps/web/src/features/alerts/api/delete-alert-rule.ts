import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** DELETE portal/alerts/rules/{id} (admin): the rule stops; the alerts it raised stay. */
export async function deleteAlertRule(ruleId: string): Promise<void> {
  await api.delete<unknown>(`portal/alerts/rules/${encodeURIComponent(ruleId)}`);
}

export function useDeleteAlertRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAlertRule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['alerts'] }),
  });
}
