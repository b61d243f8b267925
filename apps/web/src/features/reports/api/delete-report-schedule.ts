import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportSchedulesQueryOptions } from './get-report-schedules';

/** DELETE portal/report/schedules/{id} (admin): stop mailing a report. */
export async function deleteReportSchedule(id: string): Promise<void> {
  await api.delete(`portal/report/schedules/${encodeURIComponent(id)}`);
}

export function useDeleteReportSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteReportSchedule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportSchedulesQueryOptions().queryKey }),
  });
}
