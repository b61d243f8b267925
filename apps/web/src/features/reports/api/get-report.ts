import { reportSchema, type Report, type ReportRequest } from '@latchkey/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { downloadFile } from '@/lib/download';

/** What the screen asks for: the report, period and filters, and the page (no format: JSON). */
export type ReportQuery = Omit<ReportRequest, 'format'>;

/** POST portal/report (admin) as JSON: what the report covers and one page of its rows. */
export async function getReport(query: ReportQuery): Promise<Report> {
  return reportSchema.parse(await api.post<unknown>('portal/report', { ...query, format: 'json' }));
}

export const reportQueryOptions = (query: ReportQuery) =>
  queryOptions({
    queryKey: ['reports', 'report', query] as const,
    queryFn: () => getReport(query),
    placeholderData: keepPreviousData,
    // Locks report all the time: a report is made fresh each time it is asked for.
    staleTime: 0,
  });

export function useReport(query: ReportQuery | null) {
  return useQuery({ ...reportQueryOptions(query ?? { kind: 'entries' }), enabled: query !== null });
}

/**
 * POST portal/report as CSV or PDF (the whole report, streamed by the server), saved as a file
 * named after the report and its period.
 */
export async function downloadReport(
  query: ReportQuery,
  format: 'csv' | 'pdf',
  fileName: string,
): Promise<void> {
  const { skip: _skip, limit: _limit, ...whole } = query;
  const body = await api.post<unknown>(
    'portal/report',
    { ...whole, format },
    { headers: { Accept: format === 'csv' ? 'text/csv' : 'application/pdf' } },
  );
  if (format === 'csv' && typeof body !== 'string') throw new Error('The report did not come as CSV.');
  if (format === 'pdf' && !(body instanceof ArrayBuffer))
    throw new Error('The report did not come as a PDF.');
  downloadFile(body as BlobPart, fileName, format === 'csv' ? 'text/csv;charset=utf-8' : 'application/pdf');
}
