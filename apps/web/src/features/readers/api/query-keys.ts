/** Query keys of the readers feature. */
export const readerKeys = {
  all: ['readers'] as const,
  list: () => ['readers', 'list'] as const,
  enrollment: (enrollmentId: string) => ['readers', 'enrollment', enrollmentId] as const,
};

export const readerPath = (readerId: string) => `portal/reader/${encodeURIComponent(readerId)}`;
export const enrollmentPath = (enrollmentId: string) =>
  `portal/reader-enrollment/${encodeURIComponent(enrollmentId)}`;
