// Test-only helpers: an independent model of local wall time and generators shared by the access tests.
import fc from 'fast-check';
import { scheduleSchema, type Schedule, type WeeklyWindow } from './access.schemas';

/** Zones chosen for their awkward rules: DST at 02:00/03:00/midnight, half-hour DST, odd offsets, a skipped day. */
export const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'America/Santiago',
  'Asia/Kathmandu',
  'Pacific/Chatham',
  'Pacific/Apia',
  'Asia/Tokyo',
] as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// Near these instants the zones above change offset, where wall-clock bugs show.
const TRANSITIONS = [
  '2026-03-08T07:00:00Z',
  '2026-11-01T06:00:00Z',
  '2026-03-29T01:00:00Z',
  '2026-10-25T01:00:00Z',
  '2026-04-04T15:00:00Z',
  '2026-10-03T15:30:00Z',
  '2026-04-05T03:00:00Z',
  '2026-09-06T04:00:00Z',
  '2011-12-30T10:00:00Z',
].map((iso) => Date.parse(iso));

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** UTC offset in minutes of `zone` at `instant`, read from Intl's longOffset name (not from the code under test). */
export function offsetMinutes(instant: number, zone: string): number {
  let formatter = offsetFormatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    offsetFormatters.set(zone, formatter);
  }
  const name = formatter.formatToParts(instant).find((part) => part.type === 'timeZoneName')?.value ?? '';
  if (name === 'GMT') return 0;
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!match) throw new Error(`unexpected offset name ${name}`);
  return (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
}

/** The model's local wall time: shift by the offset and read the UTC fields. */
export function modelWallTime(
  instant: number,
  zone: string,
): { date: string; weekday: number; minutes: number } {
  const local = new Date(instant + offsetMinutes(instant, zone) * MINUTE);
  return {
    date: local.toISOString().slice(0, 10),
    weekday: local.getUTCDay(),
    minutes: local.getUTCHours() * 60 + local.getUTCMinutes(),
  };
}

/** Every instant (to the minute) whose wall time in `zone` is `date` at `minutes`: none in a gap, two in an overlap. */
export function instantsAtWallTime(zone: string, date: string, minutes: number): number[] {
  const naive = Date.parse(`${date}T00:00:00Z`) + minutes * MINUTE;
  const found = new Set<number>();
  for (const probe of [naive - DAY, naive, naive + DAY]) {
    const candidate = naive - offsetMinutes(probe, zone) * MINUTE;
    const wall = modelWallTime(candidate, zone);
    if (wall.date === date && wall.minutes === minutes) found.add(candidate);
  }
  return [...found].sort((a, b) => a - b);
}

/** 'HH:MM' of minutes since midnight; 1440 → '24:00'. */
export function clock(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export const zoneArb = fc.constantFrom(...ZONES);

/** Instants to the minute: anywhere in 2000–2040, or within three days of an offset change. */
export const instantArb = fc
  .oneof(
    fc.integer({
      min: Date.parse('2000-01-01T00:00:00Z') / MINUTE,
      max: Date.parse('2040-01-01T00:00:00Z') / MINUTE,
    }),
    fc
      .tuple(fc.constantFrom(...TRANSITIONS), fc.integer({ min: -3 * 24 * 60, max: 3 * 24 * 60 }))
      .map(([transition, delta]) => transition / MINUTE + delta),
  )
  .map((minute) => minute * MINUTE);

export const daysArb = fc.uniqueArray(fc.integer({ min: 0, max: 6 }), { minLength: 1, maxLength: 7 });

/** A window that does not cross midnight: start < end ≤ 24:00. */
export const dayWindowArb = fc
  .tuple(daysArb, fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 1, max: 1440 }))
  .map(([days, a, b]) => ({ days, start: Math.min(a, b - 1), end: Math.max(a + 1, b) }));

/** An overnight window: end ≤ start (end may be 00:00). */
export const overnightWindowArb = fc
  .tuple(daysArb, fc.integer({ min: 1, max: 1439 }), fc.integer({ min: 0, max: 1438 }))
  .map(([days, a, b]) => ({ days, start: Math.max(a, b + 1), end: Math.min(a - 1, b) }));

export function toWindow(window: { days: number[]; start: number; end: number }): WeeklyWindow {
  return { days: window.days, start: clock(window.start), end: clock(window.end) };
}

/** A schedule with 1–4 windows of either kind and optional dates within a few days of `around`. */
export function scheduleArb(around: string): fc.Arbitrary<Schedule> {
  return fc
    .record({
      windows: fc.array(fc.oneof(dayWindowArb, overnightWindowArb).map(toWindow), {
        minLength: 1,
        maxLength: 4,
      }),
      start: fc.option(fc.integer({ min: -4, max: 4 }), { nil: undefined }),
      length: fc.option(fc.integer({ min: 0, max: 4 }), { nil: undefined }),
    })
    .map(({ windows, start, length }) => {
      const base = Date.parse(`${around}T00:00:00Z`);
      const startDate =
        start === undefined ? undefined : new Date(base + start * DAY).toISOString().slice(0, 10);
      const endDate =
        length === undefined
          ? undefined
          : new Date(base + ((start ?? 0) + length) * DAY).toISOString().slice(0, 10);
      // Parsing proves the generator only makes schedules the schema accepts.
      return scheduleSchema.parse({ windows, startDate, endDate });
    });
}
