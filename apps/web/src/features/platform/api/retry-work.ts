import type { WorkRetryInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { platformWorkQueryOptions } from './get-platform-work';

/** POST system/work/retry (platform staff): a failed mail due now, or a failing calendar read now. */
export async function retryWork(input: WorkRetryInput): Promise<void> {
  await api.post<unknown>('system/work/retry', input);
}

export function useRetryWork() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryWork,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: platformWorkQueryOptions().queryKey }),
  });
}
