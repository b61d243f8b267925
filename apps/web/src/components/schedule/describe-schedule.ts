import type { Schedule, WeeklyWindow } from '@latchkey/shared';
import { formatCalendarDate } from '@/lib/format';

/** Weekdays as the data numbers them: 0 = Sunday … 6 = Saturday. */
export const DAY_SHORT = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
export const DAY_LONG = [
  'Sunday',
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
] as const;

/** The order days are shown in: the week starts on Monday. */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

function dayRun(run: number[]): string {
  const names = run.map((position) => DAY_SHORT[WEEK_ORDER[position]!]);
  if (names.length >= 3) return `${names[0]}–${names[names.length - 1]}`;
  return names.join(', ');
}

/**
 * "Mon–Fri", "Sat, Sun", "Mon, Wed, Fri", "Every day": Monday first; three or more days in a row
 * make a range, which may run on past Sunday into Monday ("Fri–Mon").
 */
export function describeDays(days: readonly number[]): string {
  const chosen = new Set(days);
  if (chosen.size === 7) return 'Every day';
  const positions = WEEK_ORDER.map((day, position) => (chosen.has(day) ? position : -1)).filter(
    (position) => position >= 0,
  );
  const runs: number[][] = [];
  for (const position of positions) {
    const run = runs[runs.length - 1];
    if (run && run[run.length - 1] === position - 1) run.push(position);
    else runs.push([position]);
  }
  // A run reaching Sunday continues into one starting on Monday when that makes a range: Fri–Mon.
  const first = runs[0];
  const last = runs[runs.length - 1];
  if (runs.length > 1 && first![0] === 0 && last!.at(-1) === 6 && first!.length + last!.length >= 3) {
    runs.shift();
    last!.push(...first!);
  }
  return runs.map(dayRun).join(', ');
}

/** "09:00–17:00", "all day", "22:00–06:00 (overnight)"; an end at midnight reads 24:00. */
export function describeTimes(window: Pick<WeeklyWindow, 'start' | 'end'>): string {
  const { start, end } = window;
  if (start === '00:00' && end === '24:00') return 'all day';
  if (end === '24:00' || end === '00:00') return `${start}–24:00`;
  if (end < start) return `${start}–${end} (overnight)`;
  return `${start}–${end}`;
}

/** One window in words: "Mon–Fri 09:00–17:00". */
export function describeWindow(window: WeeklyWindow): string {
  const days = describeDays(window.days);
  const times = describeTimes(window);
  return times === 'all day' ? `${days}, all day` : `${days} ${times}`;
}

/** The date range in words: "from Jan 5, 2026 to Mar 1, 2026", "until Mar 1, 2026". */
export function describeDates(schedule: Pick<Schedule, 'startDate' | 'endDate'>): string | null {
  const { startDate, endDate } = schedule;
  if (startDate && endDate) return `from ${formatCalendarDate(startDate)} to ${formatCalendarDate(endDate)}`;
  if (startDate) return `from ${formatCalendarDate(startDate)}`;
  if (endDate) return `until ${formatCalendarDate(endDate)}`;
  return null;
}

/**
 * A schedule in words, for lists: "Any time" (null), "Mon–Fri 09:00–17:00",
 * "Mon–Fri 09:00–17:00; Sat 10:00–14:00 · until Mar 1, 2026".
 */
export function describeSchedule(schedule: Schedule | null): string {
  if (schedule === null) return 'Any time';
  const windows = schedule.windows.map(describeWindow).join('; ');
  const dates = describeDates(schedule);
  return dates ? `${windows} · ${dates}` : windows;
}
