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

export function parseFeed(text: string, timeZone: string, mode: IcalFeedMode): ParsedFeed {
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
  let root: InstanceType<typeof ICAL.Component>;
  try {
    root = new ICAL.Component(ICAL.parse(trimmed) as unknown[]);
  } catch (error) {
    throw new FeedFormatError(
      `The calendar cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (root.name !== 'vcalendar') throw new FeedFormatError('The answer is not an iCalendar feed');
  const vevents = root.getAllSubcomponents('vevent');
  if (vevents.length > MAX_FEED_EVENTS) {
    throw new FeedFormatError(`The feed has ${vevents.length} events; at most ${MAX_FEED_EVENTS} are read`);
  }
  const events: FeedEvent[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const vevent of vevents) {
    // A changed occurrence of a recurring event: reservations do not recur, so these are ignored.
    if (vevent.hasProperty('recurrence-id')) continue;
    let event: InstanceType<typeof ICAL.Event>;
    try {
      event = new ICAL.Event(vevent);
    } catch {
      skipped.push('an event that cannot be read');
      continue;
    }
    // Text from the platform is cleaned (control characters, NUL, lone surrogates) before anything
    // else sees it: it is stored, and PostgreSQL refuses NUL (safe-input.ts toSafeText).
    const uid = toSafeText(String(event.uid ?? ''));
    if (!uid || uid.length > 500) {
      skipped.push('an event without a UID');
      continue;
    }
    if (seen.has(uid)) continue;
    seen.add(uid);
    let start: IcalTime | null;
    let end: IcalTime | null;
    try {
      start = event.startDate ?? null;
      end = vevent.hasProperty('dtend') || vevent.hasProperty('duration') ? event.endDate : null;
    } catch {
      skipped.push(`event ${uid}: its dates cannot be read`);
      continue;
    }
    if (!start) {
      skipped.push(`event ${uid}: no start date`);
      continue;
    }
    const startDate = dateOf(start, timeZone);
    let endDate = end ? dateOf(end, timeZone) : addDaysToDate(startDate, 1);
    // A same-day event still takes its night.
    if (endDate <= startDate) endDate = addDaysToDate(startDate, 1);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate) || !/^\d{4}-\d{2}-\d{2}$/.test(endDate)) {
      skipped.push(`event ${uid}: dates out of range`);
      continue;
    }
    const summary = toSafeText(String(event.summary ?? ''));
    const description = toSafeText(String(event.description ?? ''), { lines: true });
    const status = String(vevent.getFirstPropertyValue('status') ?? '').toUpperCase();
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
  return { total: vevents.length, events, skipped };
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
