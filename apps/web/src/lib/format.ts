import { LOCALE } from '@latchkey/shared';

/** Dates in the product's locale (en-US), optionally in a portal's own time zone. */
export function formatDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  try {
    return new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium' }).format(date);
  }
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

/** Every IANA time zone this browser knows, with `extra` (the current value) included. */
export function timeZones(extra?: string): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const all = new Set(zones);
  all.add('UTC');
  if (extra) all.add(extra);
  return [...all].sort((a, b) => a.localeCompare(b));
}

/** Date and time in the product's locale, optionally in a given time zone ("Nov 23, 2026, 9:30 AM"). */
export function formatDateTime(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '—';
  const options: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
  try {
    return new Intl.DateTimeFormat(LOCALE, { ...options, timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(LOCALE, options).format(date);
  }
}

/** A calendar date 'YYYY-MM-DD' (no time zone involved) as "Jan 5, 2026". */
export function formatCalendarDate(date: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return date;
  const utc = new Date(0);
  utc.setUTCFullYear(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeZone: 'UTC' }).format(utc);
}

/** A card UID in byte pairs ("04 A2 3B 1C"), as readers print it. */
export function formatUid(uid: string): string {
  return uid
    .replace(/[\s:-]/g, '')
    .toUpperCase()
    .replace(/(..)(?=.)/g, '$1 ');
}

/** A validity window in words: "Always", "From Jan 5, 2026, 9:00 AM", "Until …", "… – …". */
export function formatValidity(from: string | null, until: string | null): string {
  if (from && until) return `${formatDateTime(from)} – ${formatDateTime(until)}`;
  if (from) return `From ${formatDateTime(from)}`;
  if (until) return `Until ${formatDateTime(until)}`;
  return 'Always';
}
