import type { Schedule } from '@latchkey/shared';
import { notifications } from '@mantine/notifications';
import { describeSchedule } from '@/components/schedule/describe-schedule';
import { ScheduleDialog } from '@/components/schedule/schedule-dialog';
import { scheduleErrorsFrom } from '@/components/schedule/schedule-form';
import { isApiError } from '@/lib/api-client';
import { displayName } from '@/lib/session';

interface AccessScheduleDialogProps {
  person: { _id: string; firstName: string; lastName: string; email: string };
  lock: { _id: string; name: string; timeZone: string };
  /** The person's schedule at the lock, read afresh (the devices feature's `useAccessSchedule`). */
  query: {
    data?: { schedule: Schedule | null };
    error: unknown;
    isFetchedAfterMount: boolean;
    refetch: () => unknown;
  };
  /** Saving it (the devices feature's `useSetAccessSchedule`). */
  save: {
    mutateAsync: (input: {
      deviceId: string;
      userId: string;
      schedule: Schedule | null;
    }) => Promise<{ schedule: Schedule | null }>;
  };
  onClose: () => void;
}

/**
 * A person's schedule at a lock: shown once read afresh, then edited. Mounted only while open;
 * the screen passes the query and the mutation, as shared parts call no endpoint.
 */
export function AccessScheduleDialog({ person, lock, query, save, onClose }: AccessScheduleDialogProps) {
  const name = displayName(person);

  const onSave = async (schedule: Schedule | null) => {
    try {
      const saved = await save.mutateAsync({ deviceId: lock._id, userId: person._id, schedule });
      notifications.show({
        color: 'teal',
        title: 'Schedule saved',
        message: `${name} at ${lock.name}: ${describeSchedule(saved.schedule)}`,
      });
      onClose();
    } catch (error) {
      const fieldErrors = isApiError(error) && error.status === 400 ? scheduleErrorsFrom(error) : {};
      if (Object.keys(fieldErrors).length > 0) return fieldErrors;
      throw error;
    }
  };

  return (
    <ScheduleDialog
      opened
      onClose={onClose}
      title={`When can ${name} open ${lock.name}?`}
      timeZone={lock.timeZone}
      schedule={query.isFetchedAfterMount ? query.data?.schedule : undefined}
      loadError={query.error}
      onRetry={() => void query.refetch()}
      onSave={onSave}
    />
  );
}
