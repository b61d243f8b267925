import type { AccessRequestStatus } from '@latchkey/shared';
import { Badge } from '@mantine/core';

const STATUS: Record<AccessRequestStatus, { label: string; color: string }> = {
  waiting: { label: 'Waiting', color: 'yellow' },
  granted: { label: 'Granted', color: 'teal' },
  declined: { label: 'Declined', color: 'red' },
  withdrawn: { label: 'Withdrawn', color: 'gray' },
};

/** A request's state as a badge. */
export function RequestStatusBadge({ status }: { status: AccessRequestStatus }) {
  return (
    <Badge variant="light" color={STATUS[status].color}>
      {STATUS[status].label}
    </Badge>
  );
}
