import { reportScheduleSchema, type ReportScheduleInput } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { reportSchedulesQueryOptions } from './get-report-schedules';

/** POST portal/report/schedules (admin): mail a report after each week or month. */
export async function createReportSchedule(input: ReportScheduleInput) {
  return reportScheduleSchema.parse(await api.post<unknown>('portal/report/schedules', input));
}

export function useCreateReportSchedule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createReportSchedule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: reportSchedulesQueryOptions().queryKey }),
  });
}
