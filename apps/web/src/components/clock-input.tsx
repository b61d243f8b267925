import { TextInput, type TextInputProps } from '@mantine/core';
import type { ChangeEvent, FocusEvent } from 'react';

/**
 * A typed wall-clock time as 'HH:MM' on the 24-hour clock, or null when it is none: "15:00",
 * "9:05" → "09:05", "905" and "0905" → "09:05", "9" → "09:00". 24:00 is no time of a day.
 */
export function readClock(text: string): string | null {
  const typed = text.trim();
  const match = /^(\d{1,2})(?::?(\d{2}))?$/.exec(typed.length === 3 ? `0${typed}` : typed);
  if (!match) return null;
  const hour = Number(match[1]);
  const minute = Number(match[2] ?? '0');
  if (hour > 23 || minute > 59) return null;
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
}

/**
 * A time field on the 24-hour clock the app writes ("Mon–Sat 09:00–17:00", "Check-in 15:00";
 * docs/decisions.md "One clock, one format"). The browser's own time field follows its locale and
 * showed "03:00 PM" beside lists in 24 hours. A drop-in for `<TextInput type="time">`: the value
 * is 'HH:MM', and what was typed is tidied to that form when the field is left ("9:5" stays as
 * typed, for the form to refuse).
 */
export function ClockInput({ onBlur, onChange, ...props }: TextInputProps) {
  const tidy = (event: FocusEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const clock = readClock(input.value);
    if (clock && clock !== input.value) {
      input.value = clock;
      onChange?.(event as unknown as ChangeEvent<HTMLInputElement>);
    }
    onBlur?.(event);
  };
  return (
    <TextInput
      type="text"
      placeholder="HH:MM"
      inputMode="numeric"
      autoComplete="off"
      maxLength={5}
      {...props}
      onChange={onChange}
      onBlur={tidy}
    />
  );
}
