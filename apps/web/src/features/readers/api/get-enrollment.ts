import { enrollmentSchema, type Enrollment } from '@latchkey/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { enrollmentPath, readerKeys } from './query-keys';

/** GET portal/reader-enrollment/{id} (admin): waiting, read (with the value), failed, expired, cancelled. */
export async function getEnrollment(enrollmentId: string): Promise<Enrollment> {
  return enrollmentSchema.parse(await api.get<unknown>(enrollmentPath(enrollmentId)));
}

export const enrollmentQueryOptions = (enrollmentId: string) =>
  queryOptions({ queryKey: readerKeys.enrollment(enrollmentId), queryFn: () => getEnrollment(enrollmentId) });

/**
 * An enrollment, polled every second while it waits (docs/decisions.md "Enrollment readers": the
 * screen polls rather than hearing it over the live channel).
 */
export function useEnrollment(enrollmentId: string | null) {
  return useQuery({
    ...enrollmentQueryOptions(enrollmentId ?? ''),
    enabled: enrollmentId !== null,
    refetchInterval: (query) => (query.state.data?.state === 'waiting' ? 1000 : false),
  });
}
