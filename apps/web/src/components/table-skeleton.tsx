import { Skeleton, Stack } from '@mantine/core';

/** Placeholder rows while a list loads. */
export function TableSkeleton({ rows = 5, label }: { rows?: number; label: string }) {
  return (
    <Stack gap="sm" role="status" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={40} radius="sm" />
      ))}
    </Stack>
  );
}
