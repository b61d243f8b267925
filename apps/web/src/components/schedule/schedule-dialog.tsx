import type { Schedule } from '@latchkey/shared';
import { Center, Loader, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { FormModal } from '@/components/form-modal';
import { QueryError } from '@/components/query-error';
import { ScheduleEditor } from './schedule-editor';
import type { ScheduleErrors } from './schedule-form';

interface ScheduleDialogProps {
  opened: boolean;
  onClose: () => void;
  /** "Schedule at Front door" */
  title: string;
  /** Who and where, under the title. */
  subtitle?: ReactNode;
  timeZone?: string;
  /** The current schedule: undefined while it loads. */
  schedule: Schedule | null | undefined;
  loadError?: unknown;
  onRetry?: () => void;
  onSave: (schedule: Schedule | null) => Promise<ScheduleErrors | void>;
  /** The button's words, saying what happens ("Grant access"); default "Save schedule". */
  submitLabel?: string;
}

/** The schedule editor in a modal, for one person at one lock. */
export function ScheduleDialog({
  opened,
  onClose,
  title,
  subtitle,
  timeZone,
  schedule,
  loadError,
  onRetry,
  onSave,
  submitLabel,
}: ScheduleDialogProps) {
  // On a phone the editor gets the whole screen: it is a long form.
  const phone = useMediaQuery('(max-width: 37.5em)');
  let body: ReactNode;
  if (schedule !== undefined) {
    body = (
      <ScheduleEditor
        value={schedule}
        timeZone={timeZone}
        onSubmit={onSave}
        onCancel={onClose}
        submitLabel={submitLabel}
      />
    );
  } else if (loadError) {
    body = <QueryError title="Could not load the schedule" error={loadError} onRetry={onRetry} />;
  } else {
    body = (
      <Center py="xl">
        <Loader aria-label="Loading the schedule" />
      </Center>
    );
  }
  return (
    <FormModal fullScreen={phone} opened={opened} onClose={onClose} title={title} size="lg">
      {subtitle && (
        <Text size="sm" c="dimmed" mb="md">
          {subtitle}
        </Text>
      )}
      {body}
    </FormModal>
  );
}
