import { Group, Input, TextInput } from '@mantine/core';
import { useId, type FocusEvent, type ReactNode } from 'react';
import { ClockInput } from './clock-input';

/** A 'YYYY-MM-DDTHH:MM' value as its date and its time ('' is neither). */
export function splitDateTime(value: string): { date: string; time: string } {
  const [date = '', time = ''] = value.split('T');
  return { date, time: time.slice(0, 5) };
}

/** The two parts as one value again: '' when both are empty, else `${date}T${time}` as typed. */
export function joinDateTime(date: string, time: string): string {
  return date || time ? `${date}T${time}` : '';
}

interface DateTimeInputProps {
  label: string;
  description?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  disabled?: boolean;
  /** 'YYYY-MM-DDTHH:MM', or '' (or nothing) for none; a half-typed value ('2026-12-01T') is kept as typed. */
  value?: string;
  onChange: (value: string) => void;
  onFocus?: (event: FocusEvent<HTMLInputElement>) => void;
  onBlur?: (event: FocusEvent<HTMLInputElement>) => void;
}

/**
 * A date and a time on the 24-hour clock the app writes, as one form value ('YYYY-MM-DDTHH:MM',
 * what `form.getInputProps` gives a datetime-local field). The browser's datetime-local field
 * follows its locale ("12/01/2026, 10:00 AM") beside lists that say "10:00" (docs/decisions.md,
 * "One clock, one format"). The two fields are one labelled group; each is named after it
 * ("Valid from, date" and "Valid from, time"), and both carry the description and the error.
 */
export function DateTimeInput({
  label,
  description,
  error,
  required,
  disabled,
  value = '',
  onChange,
  onFocus,
  onBlur,
}: DateTimeInputProps) {
  const id = useId();
  // The value holds both parts as typed (a date field's value has no 'T', a time is 5 characters at
  // most), so the fields are read from it and need no state of their own.
  const parts = splitDateTime(value);
  const change = (part: 'date' | 'time', text: string) => {
    const next = { ...parts, [part]: text };
    onChange(joinDateTime(next.date, next.time));
  };
  const describedBy = [description && `${id}-description`, error && `${id}-error`].filter(Boolean).join(' ');
  // Each field is a bare input of this one wrapper: Mantine would give it the (empty) description
  // of its own inner wrapper, so its aria attributes are set here (withAria off; the fieldset
  // below disables both).
  const shared = {
    withAria: false,
    disabled,
    required,
    error: Boolean(error),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
    onFocus,
    onBlur,
  };

  return (
    <Input.Wrapper
      label={label}
      labelElement="div"
      labelProps={{ id: `${id}-label` }}
      description={description}
      descriptionProps={{ id: `${id}-description` }}
      error={error}
      errorProps={{ id: `${id}-error` }}
      required={required}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    >
      {/* A fieldset (a group to assistive technology) so "disabled" reaches both inputs natively. */}
      <fieldset
        disabled={disabled}
        aria-labelledby={`${id}-label`}
        style={{ border: 0, margin: 0, padding: 0, minWidth: 0 }}
      >
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            type="date"
            aria-label={`${label}, date`}
            value={parts.date}
            onChange={(event) => change('date', event.currentTarget.value)}
            style={{ flex: '1 1 auto', minWidth: 0 }}
            {...shared}
          />
          <ClockInput
            aria-label={`${label}, time`}
            value={parts.time}
            onChange={(event) => change('time', event.currentTarget.value)}
            style={{ flex: '0 0 88px' }}
            {...shared}
          />
        </Group>
      </fieldset>
    </Input.Wrapper>
  );
}
