import {
  formatCalendarDate as sharedCalendarDate,
  formatDate as sharedDate,
  formatDateTime as sharedDateTime,
  formatRange as sharedRange,
  formatTime as sharedTime,
  formatValidity as sharedValidity,
  LOCALE,
  type Session,
  type ZoneOption,
} from '@latchkey/shared';
import { queryClient } from './query-client';
import { sessionQueryKey } from './session';

// The screens' dates and times: the shared format (packages/shared/src/time-format.ts: en-US words,
// 24-hour clock), read on the clock the rule names. A lock's times pass the lock's zone; a time with
// no zone given is on the portal's clock ("everything else on the portal's zone"), and on the
// browser's own clock only where no portal is open (the basic user's area, public pages).

/** The open portal's time zone, or undefined when none is open (then the browser's clock is used). */
export function portalTimeZone(): string | undefined {
  return queryClient.getQueryData<Session>(sessionQueryKey)?.portal?.timeZone ?? undefined;
}

const zoneOr = (timeZone: string | undefined) => timeZone ?? portalTimeZone();

/** "Dec 17, 2026" on `timeZone`'s clock (default: the portal's). */
export function formatDate(iso: string, timeZone?: string, options?: ZoneOption): string {
  return sharedDate(iso, zoneOr(timeZone), options);
}

/** "14:30" on `timeZone`'s clock (default: the portal's). */
export function formatTime(iso: string, timeZone?: string, options?: ZoneOption): string {
  return sharedTime(iso, zoneOr(timeZone), options);
}

/** "Dec 17, 2026, 14:30" on `timeZone`'s clock (default: the portal's). */
export function formatDateTime(iso: string, timeZone?: string, options?: ZoneOption): string {
  return sharedDateTime(iso, zoneOr(timeZone), options);
}

/** "Dec 17, 2026, 15:00 – Dec 19, 2026, 11:00" (one date within a day) on `timeZone`'s clock. */
export function formatRange(from: string, until: string, timeZone?: string, options?: ZoneOption): string {
  return sharedRange(from, until, zoneOr(timeZone), options);
}

/** A calendar date 'YYYY-MM-DD' (no time zone involved) as "Jan 5, 2026". */
export function formatCalendarDate(date: string): string {
  return sharedCalendarDate(date);
}

/** A validity window in words: "Always", "From Jan 5, 2026, 09:00", "Until …", "… – …". */
export function formatValidity(
  from: string | null,
  until: string | null,
  timeZone?: string,
  options?: ZoneOption,
): string {
  return sharedValidity(from, until, zoneOr(timeZone), options);
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "3 days ago", "in 2 weeks", "now". */
export function formatRelative(iso: string, nowMs: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - nowMs) / 1000);
  if (Number.isNaN(seconds)) return '—';
  const format = new Intl.RelativeTimeFormat(LOCALE, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return format.format(0, 'second');
}

/**
 * The browser's IANA zones with UTC, sorted once: the dashboard's settings form asks for them on
 * every first load, and sorting 420 names with `localeCompare` showed in its profile. The names are
 * ASCII, so code-unit order is alphabetical order.
 */
let knownZones: readonly string[] | undefined;

/** Every IANA time zone this browser knows, with `extra` (the current value) included. */
export function timeZones(extra?: string): string[] {
  knownZones ??= [
    ...new Set([
      ...(typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []),
      'UTC',
    ]),
  ].sort();
  if (!extra || knownZones.includes(extra)) return [...knownZones];
  return [...knownZones, extra].sort();
}

/** A card UID in byte pairs ("04 A2 3B 1C"), as readers print it. */
export function formatUid(uid: string): string {
  return uid
    .replace(/[\s:-]/g, '')
    .toUpperCase()
    .replace(/(..)(?=.)/g, '$1 ');
}
