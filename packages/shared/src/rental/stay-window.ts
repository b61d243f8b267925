import { addDaysToDate, localWallTime } from '../access/local-time';
import { clockToMinutes } from '../access/access.schemas';

/**
 * When a stay's access starts and ends (docs/decisions.md "Rentals"). Dates and times are on the
 * lock's wall clock (the listing's locks share one time zone); the answers are instants, which the
 * credential set carries as the guest code's validity, so the lock decides on its own clock across
 * daylight-saving changes.
 */

const MS_PER_MINUTE = 60_000;

/** Minutes the zone is ahead of UTC at `instant` (Lisbon in summer: 60). */
function offsetMinutesAt(instant: number, timeZone: string): number {
  const wall = localWallTime(new Date(instant), timeZone);
  const wallAsUtc = Date.parse(`${wall.date}T00:00:00Z`) + wall.minutes * MS_PER_MINUTE;
  // The wall clock has minute precision; the instant's seconds are not part of the offset.
  const instantMinute = Math.floor(instant / MS_PER_MINUTE) * MS_PER_MINUTE;
  return Math.round((wallAsUtc - instantMinute) / MS_PER_MINUTE);
}

/**
 * The instant at which the wall clock of `timeZone` shows `date` `time` ('YYYY-MM-DD', 'HH:MM').
 * A time the clocks skip (spring forward) is read as the same time before the change, which the
 * clock shows as an hour later (02:30 in a 02:00→03:00 gap is 03:30); a time that happens twice
 * (fall back) is its first occurrence.
 */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const minutes = clockToMinutes(time);
  const wallAsUtc = Date.parse(`${date}T00:00:00Z`) + minutes * MS_PER_MINUTE;
  // Two candidates: the offsets around the wanted moment. The first that reads back is the answer.
  const before = offsetMinutesAt(wallAsUtc - 24 * 60 * MS_PER_MINUTE, timeZone);
  const after = offsetMinutesAt(wallAsUtc + 24 * 60 * MS_PER_MINUTE, timeZone);
  for (const offset of [before, after]) {
    const candidate = wallAsUtc - offset * MS_PER_MINUTE;
    const wall = localWallTime(new Date(candidate), timeZone);
    if (wall.date === date && wall.minutes === minutes) return new Date(candidate);
  }
  // In a gap: neither offset reads back; the offset before the change puts it past the gap.
  return new Date(wallAsUtc - before * MS_PER_MINUTE);
}

/** What decides a stay's access window: the stay's dates and the listing's share-lock settings. */
export interface StayWindowInput {
  /** Arrival and departure dates on the lock's calendar. */
  startDate: string;
  endDate: string;
  /** 'HH:MM' on the lock's clock. */
  checkInTime: string;
  checkOutTime: string;
  /** initialTime: minutes before check-in that access starts (0: at check-in). */
  initialMinutes: number;
  /** startTime: the earliest time of day on the arrival date access may start; null: no limit. */
  startTime: string | null;
  timeZone: string;
}

/** A stay's access window as instants. */
export interface AccessWindow {
  from: Date;
  until: Date;
}

/**
 * A stay's guest access: from check-in on the arrival date, moved earlier by `initialTime` minutes
 * but never before `startTime` on the arrival date, until check-out on the departure date.
 */
export function stayAccessWindow(input: StayWindowInput): AccessWindow {
  const checkIn = zonedInstant(input.startDate, input.checkInTime, input.timeZone);
  let from = new Date(checkIn.getTime() - input.initialMinutes * MS_PER_MINUTE);
  if (input.startTime !== null) {
    const earliest = zonedInstant(input.startDate, input.startTime, input.timeZone);
    if (from < earliest) from = earliest;
  }
  return { from, until: zonedInstant(input.endDate, input.checkOutTime, input.timeZone) };
}

/** Which moment of a stay an access-list window is counted from. */
export type AccessListAnchor = 'check_in' | 'check_out';

/**
 * Someone else's window around a stay (listingAccessList): `startOffset`–`endOffset` minutes from
 * the stay's check-in or check-out (the cleaner: check-out + 0 to check-out + 180).
 */
export function accessListWindow(
  stay: StayWindowInput,
  entry: { anchor: AccessListAnchor; startOffset: number; endOffset: number },
): AccessWindow {
  const anchor =
    entry.anchor === 'check_in'
      ? zonedInstant(stay.startDate, stay.checkInTime, stay.timeZone)
      : zonedInstant(stay.endDate, stay.checkOutTime, stay.timeZone);
  return {
    from: new Date(anchor.getTime() + entry.startOffset * MS_PER_MINUTE),
    until: new Date(anchor.getTime() + entry.endOffset * MS_PER_MINUTE),
  };
}

/** Nights between two dates (departure minus arrival). */
export function nightsBetween(startDate: string, endDate: string): number {
  return Math.round((Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000);
}

/** Whether two stays' nights overlap (a departure day may be the next arrival day). */
export function staysOverlap(
  a: { startDate: string; endDate: string },
  b: { startDate: string; endDate: string },
): boolean {
  return a.startDate < b.endDate && b.startDate < a.endDate;
}

/** Every night of a stay, as the date it starts on. */
export function nightsOf(startDate: string, endDate: string): string[] {
  const nights: string[] = [];
  for (let date = startDate; date < endDate; date = addDaysToDate(date, 1)) nights.push(date);
  return nights;
}
