import { clockToMinutes, type Schedule, type WeeklyWindow } from './access.schemas';
import { localWallTime, previousDate } from './local-time';

function dateInRange(schedule: Schedule, date: string): boolean {
  if (schedule.startDate && date < schedule.startDate) return false;
  if (schedule.endDate && date > schedule.endDate) return false;
  return true;
}

function windowOpen(
  schedule: Schedule,
  window: WeeklyWindow,
  today: { date: string; weekday: number; minutes: number },
  yesterday: { date: string; weekday: number },
): boolean {
  const start = clockToMinutes(window.start);
  const end = clockToMinutes(window.end);
  const startsToday = window.days.includes(today.weekday) && dateInRange(schedule, today.date);
  if (end > start) return startsToday && today.minutes >= start && today.minutes < end;
  // Overnight: tonight's occurrence, or the tail of the one that started yesterday.
  const startedYesterday = window.days.includes(yesterday.weekday) && dateInRange(schedule, yesterday.date);
  return (startsToday && today.minutes >= start) || (startedYesterday && today.minutes < end);
}

/**
 * True when the schedule is open at `instant` on the wall clock of `timeZone` (null: always open).
 * Wall-clock semantics: a local hour skipped by daylight saving never opens, a repeated one opens twice.
 */
export function isWithinSchedule(schedule: Schedule | null, timeZone: string, instant: Date): boolean {
  if (schedule === null) return true;
  const today = localWallTime(instant, timeZone);
  const yesterday = { date: previousDate(today.date), weekday: (today.weekday + 6) % 7 };
  return schedule.windows.some((window) => windowOpen(schedule, window, today, yesterday));
}
