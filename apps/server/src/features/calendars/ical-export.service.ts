// The export feed: each listing's private calendar at its unguessable address, fetched by the
// platforms without signing in. Apart from the feeds the listing imports (ical-feeds.service.ts)
// because it is a public read that shares nothing with them but the address.
import crypto from 'node:crypto';
import { addDaysToDate, API_BASE_PATH } from '@latchkey/shared';
import icalGenerator, { ICalCalendarMethod, ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { ListingRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { listLocksOfListing } from '../listings/listings.repository';
import { listExported } from './calendar.repository';
import { todayOn } from './calendar.service';
import type { IcalDeps } from './ical-deps';

/** The export feed's address: `/api3/ical/{token}.ics`, absolute. */
export function exportUrl(deps: Pick<IcalDeps, 'tokens' | 'publicUrl'>, listing: ListingRow): string {
  const token = deps.tokens.sign('calendar', listing.id, listing.ical_token_version);
  return `${deps.publicUrl}${API_BASE_PATH}/ical/${token}.ics`;
}

/**
 * GET ical/{token}.ics (no sign-in; the platforms fetch it): the listing's approved stays and the
 * owner's blocks from a month ago on, all-day events from the arrival date to the departure date
 * (the departure night is free for the next arrival). No names, no codes, no notes: every event
 * is "Reserved" or "Not available". Nights an imported feed marks are left out, so two platforms
 * never keep each other's blocks alive through this feed.
 */
export async function exportFeed(
  db: Database,
  deps: Pick<IcalDeps, 'tokens'>,
  token: string,
  now = new Date(),
): Promise<{ body: string; etag: string }> {
  const read = deps.tokens.read(token);
  if (!read || read.kind !== 'calendar') throw AppError.notFound('Calendar');
  const listing = await db
    .selectFrom('listings')
    .selectAll()
    .where('id', '=', read.id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!listing || listing.ical_token_version !== read.version) throw AppError.notFound('Calendar');
  const locks = await listLocksOfListing(db, listing.portal_id, listing.id);
  const today = todayOn(locks, now);
  const { stays, blocks } = await listExported(db, listing.portal_id, listing.id, addDaysToDate(today, -31));
  const calendar = icalGenerator({
    name: listing.title,
    prodId: { company: 'Latchkey', product: 'Rentals', language: 'EN' },
    method: ICalCalendarMethod.PUBLISH,
  });
  const day = (date: string) => new Date(`${date}T00:00:00Z`);
  for (const stay of stays) {
    calendar.createEvent({
      id: `stay-${stay.id}@latchkey`,
      start: day(stay.start_date),
      end: day(stay.end_date),
      allDay: true,
      summary: 'Reserved',
      stamp: new Date(toIso(stay.updated_at)),
      status: ICalEventStatus.CONFIRMED,
      transparency: ICalEventTransparency.OPAQUE,
    });
  }
  for (const block of blocks) {
    calendar.createEvent({
      id: `block-${block.id}@latchkey`,
      start: day(block.start_date),
      end: day(block.end_date),
      allDay: true,
      summary: 'Not available',
      stamp: new Date(toIso(block.created_at)),
      status: ICalEventStatus.CONFIRMED,
      transparency: ICalEventTransparency.OPAQUE,
    });
  }
  // DTSTAMP of a generated event is its row's time, so an unchanged calendar reads the same bytes
  // (and the same ETag) however often a platform asks.
  const body = calendar.toString();
  const etag = `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return { body, etag };
}
