import { scheduleInputSchema, type Schedule } from '@latchkey/shared';
import { randomId } from '@mantine/hooks';
import type { ApiError } from '@/lib/api-client';
import { fieldMessage, sentence } from '@/lib/errors';
import { formResolver } from '@/lib/forms';

/** The most windows a schedule may have (the shared schema's limit). */
export const MAX_WINDOWS = 28;

export interface WindowValues {
  /** React key of the row; not part of the schedule. */
  key: string;
  days: number[];
  start: string;
  end: string;
  /** 00:00–24:00, which a time input cannot show (it has no 24:00). */
  allDay: boolean;
}

export interface ScheduleValues {
  anyTime: boolean;
  windows: WindowValues[];
  startDate: string;
  endDate: string;
}

/** Field path (`windows.0.end`, `endDate`) → message. */
export type ScheduleErrors = Record<string, string>;

export function newWindow(): WindowValues {
  return { key: randomId(), days: [1, 2, 3, 4, 5], start: '09:00', end: '17:00', allDay: false };
}

/** The form's values for a schedule (null: at any time). */
export function scheduleToValues(schedule: Schedule | null): ScheduleValues {
  if (schedule === null) return { anyTime: true, windows: [newWindow()], startDate: '', endDate: '' };
  return {
    anyTime: false,
    windows: schedule.windows.map((window) => {
      const allDay = window.start === '00:00' && window.end === '24:00';
      // A window ending at 24:00 ends at the next 00:00: the same instant, and a time input can show it.
      return {
        key: randomId(),
        days: [...window.days],
        start: allDay ? '00:00' : window.start,
        end: allDay ? '24:00' : window.end === '24:00' ? '00:00' : window.end,
        allDay,
      };
    }),
    startDate: schedule.startDate ?? '',
    endDate: schedule.endDate ?? '',
  };
}

/** The schedule the form describes (not yet validated); null when "Any time" is on. */
export function valuesToSchedule(values: ScheduleValues): Schedule | null {
  if (values.anyTime) return null;
  return {
    windows: values.windows.map((window) => ({
      days: [...window.days].sort((a, b) => a - b),
      start: window.allDay ? '00:00' : window.start,
      end: window.allDay ? '24:00' : window.end,
    })),
    ...(values.startDate ? { startDate: values.startDate } : {}),
    ...(values.endDate ? { endDate: values.endDate } : {}),
  };
}

const FIELD_LABELS: Record<string, string> = {
  start: 'Start',
  end: 'End',
  days: 'Days',
  startDate: 'Start date',
  endDate: 'End date',
};

/** The shared schema's messages, said for this form ("needs at least one day" → "Pick at least one day"). */
function friendlyMessage(path: string, message: string): string {
  const field = path.split('.').pop() ?? path;
  if (field === 'days' && /at least one/.test(message)) return 'Pick at least one day';
  if (field === 'end' && /differ/.test(message)) {
    return 'End must differ from start. For the whole day, turn on "All day".';
  }
  if (field === 'endDate' && /before/.test(message)) return 'The end date must not be before the start date';
  if (message.toLowerCase().startsWith(`${field.toLowerCase()} `)) return sentence(message);
  return fieldMessage(FIELD_LABELS[field], message);
}

const resolve = formResolver<ScheduleValues>(scheduleInputSchema, {}, (values) => valuesToSchedule(values));

/** Validates the form with the shared scheduleInputSchema (nothing to check when "Any time" is on). */
export function validateScheduleValues(values: ScheduleValues): ScheduleErrors {
  if (values.anyTime) return {};
  const errors = resolve(values) as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(errors)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([path, message]) => [path, friendlyMessage(path, message)]),
  );
}

/**
 * The field errors of a 400 answer to a schedule save. Detail paths name the body
 * (`schedule.windows.0.end`, `body.schedule.endDate`): the part from `windows`/`startDate`/`endDate` on.
 */
export function scheduleErrorsFrom(error: ApiError): ScheduleErrors {
  const errors: ScheduleErrors = {};
  for (const detail of error.details) {
    const parts = detail.path.split(/[./]/).filter(Boolean);
    const at = parts.findIndex((part) => part === 'windows' || part === 'startDate' || part === 'endDate');
    if (at < 0) continue;
    const path = parts.slice(at).join('.');
    errors[path] ??= friendlyMessage(path, detail.message);
  }
  return errors;
}
