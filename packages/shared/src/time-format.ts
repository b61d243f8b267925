import { LOCALE } from './constants';

/**
 * The one way the product writes dates and times, on screens, in mails and on invoices (issue 19,
 * "One clock, one format"): English (US) words and order, a 24-hour clock ("Dec 17, 2026, 14:30").
 * 24 hours because locks, schedules, check-in times and the mails all speak it ("Mon–Fri 09:00–17:00",
 * "Check-in 15:00"); mixing "2:30 PM" into that made one card read two clocks.
 *
 * Every function takes the IANA zone to read the instant in. The rule of which zone: a lock's times
 * on the lock's clock, labelled with its zone ("14:30 Europe/Rome"); everything else on the portal's
 * zone. `undefined` means the zone of the machine running the code (a browser's own clock), which
 * only the web app's defaults should rely on. An unknown zone falls back to UTC, and says so in the
 * label, rather than show a time on a clock nobody named.
 *
 * Only this file (and the wall-clock arithmetic in access/local-time.ts) may build an
 * Intl.DateTimeFormat or call toLocale*String: eslint.config.js stops the rest.
 */

/** Dates without a time zone of their own ('YYYY-MM-DD' calendar dates, months) are read in UTC. */
const CALENDAR_ZONE = 'UTC';

export interface ZoneOption {
  /** Append the zone's name: "Dec 17, 2026, 14:30 Europe/Rome". */
  zone?: boolean;
  /** Start with the weekday: "Thu, Dec 17, 2026". */
  weekday?: boolean;
}

const DATE_PARTS: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric', year: 'numeric' };
const TIME_PARTS: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };

// Building a DateTimeFormat costs far more than formatting with one; lists format hundreds of times.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(options: Intl.DateTimeFormatOptions, timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${timeZone ?? ''}|${JSON.stringify(options)}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat(LOCALE, { ...options, timeZone });
    formatters.set(key, found);
  }
  return found;
}

/** Whether `timeZone` is one this runtime knows (undefined: the machine's own, always known). */
export function isKnownTimeZone(timeZone: string | undefined): boolean {
  if (timeZone === undefined) return true;
  try {
    formatter(TIME_PARTS, timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The zone the text is written in: the one asked for when known, else UTC. */
function usableZone(timeZone: string | undefined): string | undefined {
  return isKnownTimeZone(timeZone) ? timeZone : CALENDAR_ZONE;
}

/** The zone of the machine running the code ("Europe/Berlin"), as a label. */
export function machineTimeZone(): string {
  return formatter(TIME_PARTS, undefined).resolvedOptions().timeZone || CALENDAR_ZONE;
}

/** The name a time is labelled with: the IANA name ("Europe/Rome", "UTC"). */
export function zoneLabel(timeZone: string | undefined): string {
  return usableZone(timeZone) ?? machineTimeZone();
}

function toDate(instant: string | Date): Date | null {
  const date = typeof instant === 'string' ? new Date(instant) : instant;
  return Number.isNaN(date.getTime()) ? null : date;
}

function write(
  instant: string | Date,
  parts: Intl.DateTimeFormatOptions,
  timeZone: string | undefined,
  options: ZoneOption,
): string {
  const date = toDate(instant);
  if (!date) return '—';
  const zone = usableZone(timeZone);
  const text = formatter(options.weekday ? { weekday: 'short', ...parts } : parts, zone).format(date);
  return options.zone ? `${text} ${zoneLabel(zone)}` : text;
}

/** "Dec 17, 2026" (the date on the clock of `timeZone`). */
export function formatDate(instant: string | Date, timeZone?: string, options: ZoneOption = {}): string {
  return write(instant, DATE_PARTS, timeZone, options);
}

/** "14:30". */
export function formatTime(instant: string | Date, timeZone?: string, options: ZoneOption = {}): string {
  return write(instant, TIME_PARTS, timeZone, { ...options, weekday: false });
}

/** "Dec 17, 2026, 14:30". */
export function formatDateTime(instant: string | Date, timeZone?: string, options: ZoneOption = {}): string {
  return write(instant, { ...DATE_PARTS, ...TIME_PARTS }, timeZone, options);
}

/**
 * "Dec 17, 2026, 14:30 – Dec 19, 2026, 11:00", or "Dec 17, 2026, 14:30 – 18:00" within one day;
 * the zone label, when asked for, once at the end.
 */
export function formatRange(
  from: string | Date,
  until: string | Date,
  timeZone?: string,
  options: ZoneOption = {},
): string {
  const start = toDate(from);
  const end = toDate(until);
  if (!start || !end) return '—';
  const plain = { ...options, zone: false };
  const sameDay = formatDate(start, timeZone) === formatDate(end, timeZone);
  const text = `${formatDateTime(start, timeZone, plain)} – ${
    sameDay ? formatTime(end, timeZone) : formatDateTime(end, timeZone, plain)
  }`;
  return options.zone ? `${text} ${zoneLabel(usableZone(timeZone))}` : text;
}

/** A validity window in words: "Always", "From …", "Until …" or a range. */
export function formatValidity(
  from: string | null,
  until: string | null,
  timeZone?: string,
  options: ZoneOption = {},
): string {
  if (from && until) return formatRange(from, until, timeZone, options);
  if (from) return `From ${formatDateTime(from, timeZone, options)}`;
  if (until) return `Until ${formatDateTime(until, timeZone, options)}`;
  return 'Always';
}

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function calendarDay(date: string): Date | null {
  const match = CALENDAR_DATE.exec(date);
  if (!match) return null;
  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  const day = new Date(0);
  day.setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return day;
}

/** A calendar date 'YYYY-MM-DD' (a night, a billing day: no zone involved) as "Dec 17, 2026". */
export function formatCalendarDate(date: string, options: Omit<ZoneOption, 'zone'> = {}): string {
  const day = calendarDay(date);
  return day ? write(day, DATE_PARTS, CALENDAR_ZONE, options) : date;
}

/** A calendar date in full words, for headings and screen readers: "Monday, November 23, 2026". */
export function formatSpokenDate(date: string): string {
  const day = calendarDay(date);
  return day
    ? formatter({ weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }, CALENDAR_ZONE).format(
        day,
      )
    : date;
}

/** Two calendar dates as "Dec 17, 2026 – Dec 19, 2026". */
export function formatCalendarRange(start: string, end: string): string {
  return `${formatCalendarDate(start)} – ${formatCalendarDate(end)}`;
}

/** A month as "November 2026" (`month` 1–12). */
export function formatMonth(year: number, month: number): string {
  const day = new Date(0);
  day.setUTCFullYear(year, month - 1, 1);
  return formatter({ month: 'long', year: 'numeric' }, CALENDAR_ZONE).format(day);
}

/** A weekday's short name, 0 = Sunday … 6 = Saturday ("Sun"). */
export function formatWeekday(weekday: number): string {
  // Jan 4, 1970 was a Sunday.
  return formatter({ weekday: 'short' }, CALENDAR_ZONE).format(new Date(Date.UTC(1970, 0, 4 + weekday)));
}

/**
 * "Mon 2026-11-23 09:30": what the clock of `timeZone` reads at an instant, in the sortable form the
 * API's `localTime` answers (a lock's "now there"). A dash for no instant; an unknown zone reads UTC.
 */
export function formatWallClock(instant: string | Date, timeZone: string): string {
  const date = toDate(instant);
  if (!date) return '—';
  const parts = formatter(
    { weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', ...TIME_PARTS },
    usableZone(timeZone),
  ).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  // Some engines answer '24' for midnight despite h23.
  const hour = part('hour') === '24' ? '00' : part('hour');
  return `${part('weekday')} ${part('year')}-${part('month')}-${part('day')} ${hour}:${part('minute')}`;
}

const WALL_CLOCK = /^([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?$/;

/**
 * A wall-clock time stored as text ('15:00', '9:05', '15:00:00') or as minutes since midnight, in
 * the same 24-hour form as every other time: "15:00", "09:05". Text that is no time stays as it is.
 */
export function formatClock(time: string | number, timeZone?: string, options: ZoneOption = {}): string {
  let text: string;
  if (typeof time === 'number') {
    const minutes = ((Math.round(time) % 1440) + 1440) % 1440;
    text = `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  } else {
    const match = WALL_CLOCK.exec(time.trim());
    if (!match) return time;
    text = `${match[1]!.padStart(2, '0')}:${match[2]}`;
  }
  return options.zone && timeZone ? `${text} ${zoneLabel(timeZone)}` : text;
}
