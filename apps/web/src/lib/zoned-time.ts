import { localWallTime } from '@latchkey/shared';

/**
 * Wall-clock times in another time zone than the browser's: locks keep their own zone, and an
 * admin asking "who can open at 09:00?" means 09:00 on the lock's clock.
 */

const pad = (value: number) => String(value).padStart(2, '0');

/** 'YYYY-MM-DDTHH:MM' as the wall clock of `timeZone` reads at `instant` (a datetime-local value). */
export function wallClockAt(instant: Date, timeZone: string): string {
  const { date, minutes } = localWallTime(instant, timeZone);
  return `${date}T${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?$/;

/** The wall clock of `timeZone` at `ms` minus UTC, in ms (minute precision). */
function offsetAt(ms: number, timeZone: string): number {
  const instant = ms - (((ms % 60_000) + 60_000) % 60_000);
  return Date.parse(`${wallClockAt(new Date(instant), timeZone)}:00Z`) - instant;
}

/**
 * The instant at which the wall clock of `timeZone` reads `local` ('YYYY-MM-DDTHH:MM'), or null
 * when `local` is malformed. A repeated local time (clocks going back) gives its first occurrence;
 * a skipped one (clocks going forward) gives the instant just after the jump.
 */
export function instantAtWallClock(local: string, timeZone: string): Date | null {
  const match = WALL_CLOCK.exec(local);
  if (!match) return null;
  const [, year, month, day, hour, minute] = match.map(Number) as [number, ...number[]];
  const asUtc = new Date(0).setUTCFullYear(year!, month! - 1, day!) + (hour! * 60 + minute!) * 60_000;
  if (Number.isNaN(asUtc)) return null;
  const first = asUtc - offsetAt(asUtc, timeZone);
  const second = asUtc - offsetAt(first, timeZone);
  const wanted = `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}`;
  return new Date(wallClockAt(new Date(second), timeZone) === wanted ? second : first);
}
