/** A moment as read on a wall clock in one time zone. */
export interface LocalWallTime {
  /** Local calendar date, 'YYYY-MM-DD'. */
  date: string;
  /** 0 = Sunday … 6 = Saturday. */
  weekday: number;
  /** Minutes since local midnight, 0–1439. */
  minutes: number;
}

const MS_PER_DAY = 24 * 60 * 60 * 1000;

// Building a DateTimeFormat costs far more than formatting with one; locks evaluate often in one zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The local date, weekday and minute of `instant` in an IANA zone; throws RangeError for an unknown zone. */
export function localWallTime(instant: Date, timeZone: string): LocalWallTime {
  let year = 0;
  let month = 0;
  let day = 0;
  let hour = 0;
  let minute = 0;
  for (const part of formatterFor(timeZone).formatToParts(instant)) {
    if (part.type === 'year') year = Number(part.value);
    else if (part.type === 'month') month = Number(part.value);
    else if (part.type === 'day') day = Number(part.value);
    else if (part.type === 'hour') hour = Number(part.value);
    else if (part.type === 'minute') minute = Number(part.value);
  }
  // Some engines answer '24' for midnight despite h23; the date they give is already the new day.
  if (hour === 24) hour = 0;
  const date = formatDate(year, month, day);
  return { date, weekday: weekdayOfDate(date), minutes: hour * 60 + minute };
}

function formatDate(year: number, month: number, day: number): string {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

function dateToUtcMs(date: string): number {
  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  return new Date(0).setUTCFullYear(
    Number(date.slice(0, 4)),
    Number(date.slice(5, 7)) - 1,
    Number(date.slice(8, 10)),
  );
}

/** 0 = Sunday … 6 = Saturday for a 'YYYY-MM-DD' calendar date (no time zone involved). */
export function weekdayOfDate(date: string): number {
  return new Date(dateToUtcMs(date)).getUTCDay();
}

/** The calendar date `days` after (or before, if negative) a 'YYYY-MM-DD' date; pure calendar arithmetic. */
export function addDaysToDate(date: string, days: number): string {
  const shifted = new Date(dateToUtcMs(date) + days * MS_PER_DAY);
  return formatDate(shifted.getUTCFullYear(), shifted.getUTCMonth() + 1, shifted.getUTCDate());
}

/** The calendar day before a 'YYYY-MM-DD' date. */
export function previousDate(date: string): string {
  return addDaysToDate(date, -1);
}

/** The calendar day after a 'YYYY-MM-DD' date. */
export function nextDate(date: string): string {
  return addDaysToDate(date, 1);
}
