import type { Schedule } from '@latchkey/shared';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Input,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Toggle,
  Tooltip,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle, IconPlus, IconTrash } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useDirtyForm } from '@/components/form-modal';
import { errorMessage } from '@/lib/errors';
import { DAY_LONG, DAY_SHORT, WEEK_ORDER } from './describe-schedule';
import {
  MAX_WINDOWS,
  newWindow,
  scheduleToValues,
  validateScheduleValues,
  valuesToSchedule,
  type ScheduleErrors,
  type ScheduleValues,
  type WindowValues,
} from './schedule-form';
import { ClockInput } from '../clock-input';

interface ScheduleEditorProps {
  /** The schedule to start from (null: at any time). */
  value: Schedule | null;
  /** The lock's time zone, which every time and date is read in. */
  timeZone?: string;
  /**
   * Called with a schedule the shared schema accepts, or null for "Any time". It may answer field
   * errors (from the server) to show; if it throws, the error is shown above the form.
   */
  onSubmit: (schedule: Schedule | null) => Promise<ScheduleErrors | void> | ScheduleErrors | void;
  onCancel?: () => void;
  submitLabel?: string;
}

function endHint(window: WindowValues): string {
  if (window.end === '00:00' && window.start !== '00:00') return 'Until midnight.';
  if (window.end && window.start && window.end < window.start) {
    return `Overnight: ends at ${window.end} the next day.`;
  }
  return 'An end before the start runs overnight.';
}

function useScheduleForm(value: Schedule | null) {
  return useForm<ScheduleValues>({
    mode: 'controlled',
    initialValues: scheduleToValues(value),
    validate: validateScheduleValues,
  });
}

interface WindowEditorProps {
  index: number;
  count: number;
  form: ReturnType<typeof useScheduleForm>;
}

function WindowEditor({ index, count, form }: WindowEditorProps) {
  const window = form.values.windows[index]!;
  const path = `windows.${index}`;
  const daysLabelId = useId();
  const daysErrorId = useId();
  const daysError = form.errors[`${path}.days`];
  const number = index + 1;

  const toggleDay = (day: number) => {
    const days = window.days.includes(day) ? window.days.filter((d) => d !== day) : [...window.days, day];
    form.setFieldValue(`${path}.days`, days);
    form.clearFieldError(`${path}.days`);
  };

  return (
    <Paper withBorder radius="md" p="sm" component="fieldset" m={0} aria-label={`Window ${number}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600} size="sm" component="legend" p={0} style={{ float: 'left' }}>
            Window {number}
          </Text>
          <Tooltip label="A schedule needs at least one window" disabled={count > 1}>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove window ${number}`}
              disabled={count <= 1}
              onClick={() => {
                form.removeListItem('windows', index);
                form.clearErrors();
              }}
            >
              <IconTrash size={18} aria-hidden="true" />
            </ActionIcon>
          </Tooltip>
        </Group>
        <Input.Wrapper
          labelElement="div"
          label="Days"
          labelProps={{ id: daysLabelId }}
          error={daysError}
          errorProps={{ id: daysErrorId }}
        >
          <SimpleGrid
            cols={7}
            spacing={4}
            mt={4}
            maw={420}
            role="group"
            aria-labelledby={daysLabelId}
            aria-describedby={daysError ? daysErrorId : undefined}
          >
            {WEEK_ORDER.map((day) => (
              <Toggle
                key={day}
                size="md"
                variant="filled"
                active={window.days.includes(day)}
                onClick={() => toggleDay(day)}
                aria-label={DAY_LONG[day]}
                w="100%"
                miw={0}
                px={0}
                fz="sm"
              >
                {DAY_SHORT[day]}
              </Toggle>
            ))}
          </SimpleGrid>
        </Input.Wrapper>
        <Switch
          label="All day"
          checked={window.allDay}
          onChange={(event) => {
            const allDay = event.currentTarget.checked;
            form.setFieldValue(`${path}.allDay`, allDay);
            if (!allDay && window.start === '00:00' && window.end === '24:00') {
              form.setFieldValue(`${path}.end`, '23:59');
            }
            form.clearFieldError(`${path}.end`);
          }}
        />
        {!window.allDay && (
          <SimpleGrid cols={2} spacing="sm">
            <ClockInput label="Start" required {...form.getInputProps(`${path}.start`)} />
            <ClockInput
              label="End"
              required
              description={endHint(window)}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
              {...form.getInputProps(`${path}.end`)}
            />
          </SimpleGrid>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Edits a person's schedule at a lock: "Any time", or weekly windows (days, start, end; overnight
 * when the end is not after the start) with optional first and last dates. Validated with the
 * shared scheduleInputSchema; emits a Schedule, or null for "Any time".
 */
export function ScheduleEditor({
  value,
  timeZone,
  onSubmit,
  onCancel,
  submitLabel = 'Save schedule',
}: ScheduleEditorProps) {
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const form = useScheduleForm(value);
  // In a FormModal, closing with changes asks first.
  useDirtyForm(form.isDirty());
  const { windows, anyTime } = form.values;

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    setSaving(true);
    try {
      const errors = await onSubmit(valuesToSchedule(values));
      if (errors && Object.keys(errors).length > 0) form.setErrors(errors);
    } catch (error) {
      setFormError(errorMessage(error));
    } finally {
      setSaving(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Schedule">
      <Stack gap="md">
        {formError && (
          <Alert color="red" variant="light" icon={<IconAlertCircle aria-hidden="true" />} role="alert">
            {formError}
          </Alert>
        )}
        <Switch
          label="Any time"
          description="No limits: the lock opens for them around the clock."
          {...form.getInputProps('anyTime', { type: 'checkbox' })}
        />
        {!anyTime && (
          <>
            {timeZone && (
              <Text size="sm" c="dimmed">
                Times and dates are the lock&apos;s own ({timeZone}).
              </Text>
            )}
            <Stack gap="sm">
              {windows.map((window, index) => (
                <WindowEditor key={window.key} index={index} count={windows.length} form={form} />
              ))}
            </Stack>
            <Group justify="space-between" gap="sm">
              <Button
                variant="light"
                leftSection={<IconPlus size={16} aria-hidden="true" />}
                disabled={windows.length >= MAX_WINDOWS}
                onClick={() => form.insertListItem('windows', newWindow())}
              >
                Add window
              </Button>
              {windows.length >= MAX_WINDOWS && (
                <Text size="xs" c="dimmed">
                  Up to {MAX_WINDOWS} windows.
                </Text>
              )}
            </Group>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <TextInput
                type="date"
                label="Start date"
                description="Optional: first day it applies."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                {...form.getInputProps('startDate')}
              />
              <TextInput
                type="date"
                label="End date"
                description="Optional: last day it applies."
                inputWrapperOrder={['label', 'input', 'description', 'error']}
                {...form.getInputProps('endDate')}
              />
            </SimpleGrid>
          </>
        )}
        <Group justify="flex-end" gap="sm">
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={saving}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={saving}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
