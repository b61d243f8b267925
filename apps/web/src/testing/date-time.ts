import { fireEvent, screen, within } from '@testing-library/react';
import { joinDateTime, splitDateTime } from '@/components/date-time-input';

// A DateTimeInput (components/date-time-input.tsx) is a date field and a time field named after
// its label ("Valid from, date", "Valid from, time"); these read and set both as one value.

/** Both fields of the date-time field labelled `label`. */
export function dateTimeFields(label: string, container?: HTMLElement) {
  const scope = container ? within(container) : screen;
  return {
    date: scope.getByLabelText(`${label}, date`) as HTMLInputElement,
    time: scope.getByLabelText(`${label}, time`) as HTMLInputElement,
  };
}

/** Types 'YYYY-MM-DDTHH:MM' (or '') into the date-time field labelled `label`. */
export function setDateTime(label: string, value: string, container?: HTMLElement) {
  const { date, time } = dateTimeFields(label, container);
  const parts = splitDateTime(value);
  fireEvent.change(date, { target: { value: parts.date } });
  fireEvent.change(time, { target: { value: parts.time } });
  fireEvent.blur(time);
}

/** What the date-time field labelled `label` holds, as 'YYYY-MM-DDTHH:MM' ('' when empty). */
export function dateTimeValue(label: string, container?: HTMLElement): string {
  const { date, time } = dateTimeFields(label, container);
  return joinDateTime(date.value, time.value);
}
