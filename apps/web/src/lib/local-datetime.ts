/**
 * `<input type="datetime-local">` values ('YYYY-MM-DDTHH:MM') read on the browser's own clock,
 * and the ISO instants with offset the API takes ('2026-12-01T09:00:00-05:00').
 */

const pad = (value: number) => String(value).padStart(2, '0');

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The browser's time zone name ("Europe/Berlin"), for hints. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'your time zone';
}

/** A Date as ISO 8601 with the browser's offset at that instant: '2026-12-01T09:00:00+01:00'. */
export function toOffsetIso(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  const abs = Math.abs(offset);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/**
 * A datetime-local value on the browser's clock as ISO with offset, or null when empty or
 * malformed. A time skipped by a clock change resolves as the browser's Date does.
 */
export function localInputToIso(value: string): string | null {
  const match = LOCAL.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match.map((part) => Number(part ?? 0));
  const date = new Date(year!, month! - 1, day!, hour!, minute!, second!);
  if (Number.isNaN(date.getTime()) || date.getMonth() !== month! - 1) return null;
  return toOffsetIso(date);
}

/** An instant as a datetime-local value on the browser's clock ('' for null or malformed). */
export function isoToLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
