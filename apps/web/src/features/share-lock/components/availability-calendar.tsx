import { addDaysToDate, formatMonth, formatSpokenDate, weekdayOfDate } from '@latchkey/shared';
import { ActionIcon, Group, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import classes from './share-lock.module.css';

interface Range {
  startDate: string;
  endDate: string;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

const monthOf = (date: string) => date.slice(0, 7);
const firstOf = (month: string) => `${month}-01`;
function addMonths(month: string, count: number): string {
  const [year, m] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (m - 1) + count;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}
const monthName = (month: string) => {
  const [year, m] = month.split('-').map(Number) as [number, number];
  return formatMonth(year, m);
};
const dayName = (date: string) => formatSpokenDate(date);

/** Whether the night starting on `date` is taken by one of `ranges`. */
export function nightTaken(date: string, taken: readonly Range[]): boolean {
  return taken.some((range) => range.startDate <= date && date < range.endDate);
}

/** Whether every night from `start` up to `end` (excluded) is free. */
export function nightsFree(start: string, end: string, taken: readonly Range[]): boolean {
  return taken.every((range) => !(range.startDate < end && start < range.endDate));
}

/**
 * A month of the listing's calendar: nights already taken are struck through, past days are off;
 * choosing a free day sets the arrival, a later day the departure (every night between must be
 * free; a departure day may be someone's arrival). Each day is a button a screen reader names
 * with its date and state.
 */
export function AvailabilityCalendar({
  today,
  taken,
  value,
  onChange,
}: {
  today: string;
  taken: readonly Range[];
  value: { startDate: string | null; endDate: string | null };
  onChange: (value: { startDate: string | null; endDate: string | null }) => void;
}) {
  const [month, setMonth] = useState(monthOf(value.startDate ?? today));
  const first = firstOf(month);
  const lead = (weekdayOfDate(first) + 6) % 7;
  const days: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let date = first; monthOf(date) === month; date = addDaysToDate(date, 1)) days.push(date);
  while (days.length % 7 !== 0) days.push(null);
  const weeks = Array.from({ length: days.length / 7 }, (_, i) => days.slice(i * 7, i * 7 + 7));

  const { startDate, endDate } = value;
  const choosingEnd = startDate !== null && endDate === null;
  const canEndOn = (date: string) => choosingEnd && date > startDate && nightsFree(startDate, date, taken);

  const pick = (date: string) => {
    if (canEndOn(date)) onChange({ startDate, endDate: date });
    else if (!nightTaken(date, taken)) onChange({ startDate: date, endDate: null });
  };

  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="nowrap">
        <ActionIcon
          variant="default"
          aria-label="Previous month"
          disabled={month <= monthOf(today)}
          onClick={() => setMonth(addMonths(month, -1))}
        >
          <IconChevronLeft size={18} aria-hidden="true" />
        </ActionIcon>
        <Text fw={600} aria-live="polite">
          {monthName(month)}
        </Text>
        <ActionIcon variant="default" aria-label="Next month" onClick={() => setMonth(addMonths(month, 1))}>
          <IconChevronRight size={18} aria-hidden="true" />
        </ActionIcon>
      </Group>
      <table className={classes.calendar} aria-label={`Free and taken nights, ${monthName(month)}`}>
        <thead>
          <tr>
            {WEEKDAYS.map((day) => (
              <th key={day} scope="col">
                {day}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week, i) => (
            <tr key={i}>
              {week.map((date, j) => {
                if (!date) return <td key={j} />;
                const past = date < today;
                const isTaken = nightTaken(date, taken);
                const edge = date === startDate || date === endDate;
                const inRange = startDate !== null && endDate !== null && date > startDate && date < endDate;
                const selectable = !past && (canEndOn(date) || !isTaken);
                const state = past
                  ? 'past'
                  : date === startDate
                    ? 'your arrival'
                    : date === endDate
                      ? 'your departure'
                      : isTaken
                        ? canEndOn(date)
                          ? 'taken, free to leave'
                          : 'taken'
                        : 'free';
                return (
                  <td key={date}>
                    <button
                      type="button"
                      className={classes.day}
                      disabled={!selectable}
                      aria-pressed={edge}
                      aria-label={`${dayName(date)}, ${state}`}
                      data-taken={isTaken || undefined}
                      data-edge={edge || undefined}
                      data-in-range={inRange || undefined}
                      onClick={() => pick(date)}
                    >
                      {Number(date.slice(8))}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <Text size="xs" c="dimmed">
        {choosingEnd
          ? 'Now choose your departure day.'
          : 'Choose your arrival day. Struck-through nights are taken.'}
      </Text>
    </Stack>
  );
}
