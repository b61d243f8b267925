import { enrollmentSchema, type Enrollment, type EnrollmentStart } from '@latchkey/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { readerKeys, readerPath } from './query-keys';

/** POST portal/reader/{id}/enroll (admin): ask the reader for a card or a finger (60 s). */
export async function startEnrollment({
  readerId,
  ...input
}: EnrollmentStart & { readerId: string }): Promise<Enrollment> {
  return enrollmentSchema.parse(await api.post<unknown>(`${readerPath(readerId)}/enroll`, input));
}

export function useStartEnrollment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startEnrollment,
    onSuccess: (enrollment) => queryClient.setQueryData(readerKeys.enrollment(enrollment._id), enrollment),
  });
}
