import { enrollmentSchema, type Enrollment } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { enrollmentPath, readerKeys } from './query-keys';

/** POST portal/reader-enrollment/{id}/cancel (admin): stop waiting for the reader. */
export async function cancelEnrollment(enrollmentId: string): Promise<Enrollment> {
  return enrollmentSchema.parse(await api.post<unknown>(`${enrollmentPath(enrollmentId)}/cancel`, {}));
}

export function useCancelEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: cancelEnrollment,
    onSuccess: (enrollment) => queryClient.setQueryData(readerKeys.enrollment(enrollment._id), enrollment),
  });
}
