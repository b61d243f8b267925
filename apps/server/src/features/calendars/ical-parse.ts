import { addDaysToDate, localWallTime, toSafeText, type IcalFeedMode } from '@latchkey/shared';
import ICAL from 'ical.js';

/**
 * Reads another platform's feed (RFC 5545, with ical.js) into the events an import needs: a UID,
 * the nights (arrival and departure dates on the listing's calendar), whether the platform
 * cancelled it, and whether it is a reservation (its guest gets a code) or only nights that are
 * not available. Feeds carry dates (`DTSTART;VALUE=DATE`); a date-time is read on the listing's
 * clock: in UTC it is converted, floating or with a TZID it is taken as the listing's wall time.
 * Its text (UID, SUMMARY, DESCRIPTION) is made storable with the shared `toSafeText`.
 */

export interface FeedEvent {
  uid: string;
  startDate: string;
  endDate: string;
  summary: string;
  description: string;
  cancelled: boolean;
  kind: 'reservation' | 'block';
}

export interface ParsedFeed {
  /** Every VEVENT of the feed, read or not: what "the feed had events" counts. */
  total: number;
  events: FeedEvent[];
  /** Events left out (no UID, no start), in words. */
  skipped: string[];
}

/** The feed is not a calendar this server can read. */
export class FeedFormatError extends Error {}

/** The most events one feed may carry. */
export const MAX_FEED_EVENTS = 5000;

/** Summaries that mark nights not available rather than a guest's reservation. */
const NOT_AVAILABLE = /not available|unavailable|blocked|closed|owner block|maintenance/i;

type IcalTime = InstanceType<typeof ICAL.Time>;

/** The calendar date of a DTSTART/DTEND on the listing's calendar. */
function dateOf(time: IcalTime, timeZone: string): string {
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  if (!time.isDate && (time.zone === ICAL.Timezone.utcTimezone || time.zone?.tzid === 'UTC')) {
    return localWallTime(time.toJSDate(), timeZone).date;
  }
  return `${pad(time.year, 4)}-${pad(time.month)}-${pad(time.day)}`;
}

/** Events parsed per slice: the parser yields to the event loop between slices (~10 ms each). */
const EVENTS_PER_SLICE = 250;

/**
 * The feed's text as calendars of at most EVENTS_PER_SLICE events each (the header, such as
 * VTIMEZONE, repeated in each), so that a 5,000-event feed is parsed in short steps; null when its
 * VEVENTs are not well nested (it is then parsed whole, and its error is ical.js's).
 */
function slicesOf(text: string): string[] | null {
  const lines = text.split(/\r?\n/);
  const head: string[] = [];
  const events: string[][] = [];
  let current: string[] | null = null;
  let tail: string[] = [];
  for (const line of lines) {
    const bare = line.trimEnd().toUpperCase();
    if (bare === 'BEGIN:VEVENT') {
      if (current) return null;
      current = [line];
      tail = [];
    } else if (bare === 'END:VEVENT') {
      if (!current) return null;
      current.push(line);
      events.push(current);
      current = null;
    } else if (current) current.push(line);
    else if (events.length === 0) head.push(line);
    else tail.push(line);
  }
  if (current) return null;
  if (events.length === 0) return [text];
  const slices: string[] = [];
  for (let i = 0; i < events.length; i += EVENTS_PER_SLICE) {
    slices.push([...head, ...events.slice(i, i + EVENTS_PER_SLICE).flat(), ...tail].join('\r\n'));
  }
  return slices;
}

function parseCalendar(text: string): InstanceType<typeof ICAL.Component> {
  let root: InstanceType<typeof ICAL.Component>;
  try {
    root = new ICAL.Component(ICAL.parse(text) as unknown[]);
  } catch (error) {
    throw new FeedFormatError(
      `The calendar cannot be read: ${toSafeText(error instanceof Error ? error.message : String(error))}`,
    );
  }
  if (root.name !== 'vcalendar') throw new FeedFormatError('The answer is not an iCalendar feed');
  return root;
}

/**
 * Parses a feed in slices, yielding to the event loop between them (it runs in the import job,
 * beside requests). Properties are read from each VEVENT directly (ical.js's Event wrapper costs
 * ~0.2 ms an event).
 */
export async function parseFeed(text: string, timeZone: string, mode: IcalFeedMode): Promise<ParsedFeed> {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (!/^BEGIN:VCALENDAR/i.test(trimmed)) {
    const looksLikeHtml = /^<(!doctype|html)/i.test(trimmed);
    throw new FeedFormatError(
      trimmed.length === 0
        ? 'The platform sent an empty answer instead of a calendar'
        : looksLikeHtml
          ? 'The platform sent a web page instead of a calendar (is the address the iCal export link?)'
          : 'The answer is not an iCalendar feed (it does not start with BEGIN:VCALENDAR)',
    );
  }
  // Counted before anything is parsed: a feed over the limit costs no parsing.
  const counted = trimmed.match(/^BEGIN:VEVENT[ \t]*$/gim)?.length ?? 0;
  if (counted > MAX_FEED_EVENTS) {
    throw new FeedFormatError(`The feed has ${counted} events; at most ${MAX_FEED_EVENTS} are read`);
  }
  const events: FeedEvent[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  let total = 0;
  const slices = slicesOf(trimmed) ?? [trimmed];
  for (const [index, slice] of slices.entries()) {
    if (index > 0) await new Promise((resolve) => setImmediate(resolve));
    const vevents = parseCalendar(slice).getAllSubcomponents('vevent');
    total += vevents.length;
    for (const vevent of vevents) readEvent(vevent, timeZone, mode, { events, skipped, seen });
  }
  return { total, events, skipped };
}

type IcalComponent = InstanceType<typeof ICAL.Component>;

/** One VEVENT into `into.events`, or why not into `into.skipped`; a UID seen before is left out. */
function readEvent(
  vevent: IcalComponent,
  timeZone: string,
  mode: IcalFeedMode,
  into: { events: FeedEvent[]; skipped: string[]; seen: Set<string> },
): void {
  const { events, skipped, seen } = into;
  // A changed occurrence of a recurring event: reservations do not recur, so these are ignored.
  if (vevent.hasProperty('recurrence-id')) return;
  const text = (name: string) => {
    const value = vevent.getFirstPropertyValue(name);
    return typeof value === 'string' ? value : value === null || value === undefined ? '' : String(value);
  };
  // Text from the platform is cleaned (control characters, NUL, lone surrogates) before anything
  // else sees it: it is stored, and PostgreSQL refuses NUL (safe-input.ts toSafeText).
  let uid: string;
  try {
    uid = toSafeText(text('uid'));
  } catch {
    skipped.push('an event that cannot be read');
    return;
  }
  if (!uid || uid.length > 500) {
    skipped.push('an event without a UID');
    return;
  }
  if (seen.has(uid)) return;
  seen.add(uid);
  let start: IcalTime | null;
  let end: IcalTime | null;
  try {
    const dtstart = vevent.getFirstPropertyValue('dtstart');
    start = dtstart instanceof ICAL.Time ? dtstart : null;
    if (dtstart && !start) throw new Error('not a time');
    const dtend = vevent.getFirstPropertyValue('dtend');
    const duration = vevent.getFirstPropertyValue('duration');
    if (dtend instanceof ICAL.Time) end = dtend;
    else if (start && duration instanceof ICAL.Duration) {
      end = start.clone();
      end.addDuration(duration);
    } else end = null;
  } catch {
    skipped.push(`event ${uid}: its dates cannot be read`);
    return;
  }
  if (!start) {
    skipped.push(`event ${uid}: no start date`);
    return;
  }
  const startDate = dateOf(start, timeZone);
  let endDate = end ? dateOf(end, timeZone) : addDaysToDate(startDate, 1);
  // A same-day event still takes its night.
  if (endDate <= startDate) endDate = addDaysToDate(startDate, 1);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate) || !/^\d{4}-\d{2}-\d{2}$/.test(endDate)) {
    skipped.push(`event ${uid}: dates out of range`);
    return;
  }
  const summary = toSafeText(text('summary'));
  const description = toSafeText(text('description'), { lines: true });
  const status = text('status').toUpperCase();
  const kind =
    mode === 'reservations'
      ? 'reservation'
      : mode === 'blocks'
        ? 'block'
        : NOT_AVAILABLE.test(summary)
          ? 'block'
          : 'reservation';
  events.push({ uid, startDate, endDate, summary, description, cancelled: status === 'CANCELLED', kind });
}

/** A guest name from what a platform writes: "Reserved - Ana Silva" → "Ana Silva", else "Airbnb guest". */
export function guestNameOf(summary: string, feedName: string): string {
  const generic =
    /^(reserved|reservation|booked|booking|airbnb|vrbo|booking\.com|not available|closed|blocked)$/i;
  const parts = summary
    .split(/\s+[-–:|]\s+|[()]/)
    .map((p) => p.trim())
    .filter((p) => p && !generic.test(p));
  const name = parts[0] ?? '';
  return (name && name.length <= 80 ? name : `${feedName} guest`).slice(0, 80);
}
