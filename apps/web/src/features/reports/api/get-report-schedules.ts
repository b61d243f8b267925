import { reportScheduleListSchema } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/** GET portal/report/schedules (admin): the reports mailed weekly or monthly. */
export async function getReportSchedules() {
  return reportScheduleListSchema.parse(await api.get<unknown>('portal/report/schedules'));
}

export const reportSchedulesQueryOptions = () =>
  queryOptions({ queryKey: ['reports', 'schedules'] as const, queryFn: getReportSchedules });

export function useReportSchedules() {
  return useQuery(reportSchedulesQueryOptions());
}
