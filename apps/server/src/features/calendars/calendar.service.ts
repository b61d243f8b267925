import crypto from 'node:crypto';
import {
  accessListWindow,
  addDaysToDate,
  localWallTime,
  nightsBetween,
  stayAccessWindow,
  staysOverlap,
  type CalendarAction,
  type CalendarBlock,
  type CalendarBooking,
  type CalendarChange,
  type CalendarQuery,
  type ListingCalendar,
  type UpcomingMovement,
  type UpcomingPage,
  type UpcomingQuery,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { DeviceRow, ListingBlockRow, StayRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { listAccessList, listLocksOfListing, lockListingRow } from '../listings/listings.repository';
import { requireListing } from '../listings/listings.service';
import { stayTimes, windowInput } from '../stays/stay-access';
import { listingTimeZone } from '../listings/listing-clock';
import { findOverlappingStays, findStayById } from '../stays/stays.repository';
import { feedNames, listStaysBetween } from './calendar.repository';
import {
  deleteBlock,
  findBlock,
  findBlockById,
  insertBlock,
  listBlocks,
} from '../listings/listing-blocks.repository';

/**
 * A listing's calendar (issue 12, R2; docs/decisions.md "Rentals: calendars, iCal, reviews"):
 * bookings, pending requests, blocks and the access windows the bookings give, for a stretch of
 * nights; the owner's blocks; the portal's next arrivals and departures.
 */

/** Today on the listing's calendar. */
export function todayOn(locks: readonly DeviceRow[], now = new Date()): string {
  return localWallTime(now, listingTimeZone(locks)).date;
}

function presentBlock(block: ListingBlockRow, names: Map<string, string>): CalendarBlock {
  return {
    _id: block.id,
    startDate: block.start_date,
    endDate: block.end_date,
    note: block.note,
    source: block.source,
    feedName: block.ical_feed_id ? (names.get(block.ical_feed_id) ?? null) : null,
    createdAt: toIso(block.created_at),
  };
}

/**
 * What each stay overlaps: other approved stays and the owner's blocks. Blocks an imported feed
 * marks are not counted: a platform importing the export feed echoes every booking back as one.
 */
export function overlapsOf(
  stays: readonly Pick<StayRow, 'id' | 'state' | 'start_date' | 'end_date'>[],
  blocks: readonly Pick<ListingBlockRow, 'id' | 'source' | 'start_date' | 'end_date'>[],
): Map<string, string[]> {
  const nights = (r: { start_date: string; end_date: string }) => ({
    startDate: r.start_date,
    endDate: r.end_date,
  });
  const approved = stays.filter((s) => s.state === 'approved');
  const ownerBlocks = blocks.filter((b) => b.source === 'owner');
  const result = new Map<string, string[]>();
  for (const stay of stays) {
    const ids = [
      ...approved.filter((o) => o.id !== stay.id && staysOverlap(nights(o), nights(stay))).map((o) => o.id),
      ...ownerBlocks.filter((b) => staysOverlap(nights(b), nights(stay))).map((b) => b.id),
    ];
    result.set(stay.id, ids);
  }
  return result;
}

/** GET device/{listingId}/calendar: bookings, requests, blocks and access windows from `from` up to `to`. */
export async function getListingCalendar(
  db: Database,
  portalId: string,
  listingId: string,
  query: CalendarQuery,
  now = new Date(),
): Promise<ListingCalendar> {
  const listing = await requireListing(db, portalId, listingId);
  const locks = await listLocksOfListing(db, portalId, listingId);
  const timeZone = listingTimeZone(locks);
  const today = todayOn(locks, now);
  const from = query.from ?? `${today.slice(0, 7)}-01`;
  const to = query.to ?? addDaysToDate(from, 92);
  if (to <= from)
    throw AppError.badRequest('to must be after from', [
      { path: 'querystring.to', message: 'must be after from' },
    ]);
  // Overlaps are found among everything near the window, so a booking overlapping one just outside it still says so.
  const wide = { from: addDaysToDate(from, -400), to: addDaysToDate(to, 400) };
  const [stays, blocks, accessList] = await Promise.all([
    listStaysBetween(db, portalId, listingId, wide, ['approved', 'requested']),
    listBlocks(db, portalId, listingId, wide),
    listAccessList(db, portalId, listingId),
  ]);
  const names = await feedNames(db, portalId, [
    ...stays.map((s) => s.ical_feed_id),
    ...blocks.map((b) => b.ical_feed_id),
  ]);
  const overlaps = overlapsOf(stays, blocks);
  const inWindow = (r: { start_date: string; end_date: string }) => r.start_date < to && r.end_date > from;
  const shown = stays.filter(inWindow);
  const bookings: CalendarBooking[] = shown.map((stay) => ({
    _id: stay.id,
    guestName: stay.guest_name,
    startDate: stay.start_date,
    endDate: stay.end_date,
    nights: nightsBetween(stay.start_date, stay.end_date),
    state: stay.state as 'approved' | 'requested',
    source: stay.source,
    feedName: stay.ical_feed_id ? (names.get(stay.ical_feed_id) ?? null) : null,
    accessState: stay.access_state,
    ...stayTimes(stay, listing),
    overlaps: overlaps.get(stay.id) ?? [],
  }));
  const windows = shown
    .filter((stay) => stay.state === 'approved')
    .flatMap((stay) => {
      const input = windowInput(stay, listing, timeZone);
      const guest = stayAccessWindow(input);
      return [
        { stayId: stay.id, holder: 'guest' as const, name: stay.guest_name, ...guest },
        ...accessList.map((entry) => ({
          stayId: stay.id,
          holder: 'access_list' as const,
          name: entry.name,
          ...accessListWindow(input, {
            anchor: entry.anchor,
            startOffset: entry.start_offset,
            endOffset: entry.end_offset,
          }),
        })),
      ].map((w) => ({
        stayId: w.stayId,
        holder: w.holder,
        name: w.name,
        from: w.from.toISOString(),
        until: w.until.toISOString(),
      }));
    });
  return {
    listingId: listing.id,
    title: listing.title,
    timeZone,
    today,
    from,
    to,
    bookings,
    blocks: blocks.filter(inWindow).map((b) => presentBlock(b, names)),
    windows,
  };
}

/**
 * POST device/{listingId}/calendar: `block` closes nights to requests (refused over an approved
 * stay: cancel or change that instead), `unblock` opens the owner's block again. A feed's block
 * goes when its feed drops it.
 */
export async function changeCalendar(
  db: Database,
  context: ChangeContext,
  listingId: string,
  action: CalendarAction,
): Promise<CalendarChange> {
  return db.transaction().execute(async (trx) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    // The listing's row lock, so a block and an approval of the same nights never both go through.
    await lockListingRow(trx, listing.portal_id, listing.id);
    if (action.action === 'block') {
      const nights = { startDate: action.startDate, endDate: action.endDate };
      if (nightsBetween(nights.startDate, nights.endDate) > 731) {
        throw AppError.badRequest('endDate makes a block of more than two years', [
          { path: 'body.endDate', message: 'makes a block of more than two years' },
        ]);
      }
      const taken = await findOverlappingStays(trx, context.portalId, listingId, nights);
      if (taken.length > 0) {
        const stay = taken[0]!;
        throw AppError.conflict(
          `${stay.guest_name} stays from ${stay.start_date} to ${stay.end_date}: cancel or change that stay instead`,
        );
      }
      const row = {
        id: crypto.randomUUID(),
        portal_id: context.portalId,
        listing_id: listingId,
        start_date: nights.startDate,
        end_date: nights.endDate,
        note: action.note ?? '',
        source: 'owner' as const,
        ical_feed_id: null,
        external_ref: null,
        created_by: context.actorUserId,
        created_at: nowIso(),
      };
      await insertBlock(trx, row);
      await recordChange(trx, context, {
        action: 'listing.calendar.block',
        entityType: 'listing',
        entityId: listingId,
        after: { listing: listing.title, startDate: row.start_date, endDate: row.end_date, note: row.note },
      });
      return { action: 'block', block: presentBlock(row, new Map()) };
    }
    const block = await findBlock(trx, context.portalId, listingId, action.blockId);
    if (!block) throw AppError.notFound('Block');
    if (block.source !== 'owner') {
      throw AppError.conflict(
        'These nights come from an imported calendar: they open when that calendar drops them',
      );
    }
    await deleteBlock(trx, context.portalId, block.id);
    await recordChange(trx, context, {
      action: 'listing.calendar.unblock',
      entityType: 'listing',
      entityId: listingId,
      before: {
        listing: listing.title,
        startDate: block.start_date,
        endDate: block.end_date,
        note: block.note,
      },
    });
    return { action: 'unblock', block: presentBlock(block, new Map()) };
  });
}

/** One entry of a listing's calendar, found by its id alone. */
export type CalendarEntry =
  | { kind: 'block'; listingId: string; block: CalendarBlock }
  | { kind: 'stay'; listingId: string; booking: CalendarBooking; windows: ListingCalendar['windows'] };

/**
 * One entry of the portal's calendars by its id (the collection API names no listing): a block, or
 * a stay its listing's calendar shows (a booking or a waiting request, with the access windows it
 * gives), read from that calendar so it answers what the calendar shows. Null when neither (a
 * declined or cancelled stay is on no calendar; a deleted listing has none).
 */
export async function getCalendarEntry(
  db: Database,
  portalId: string,
  entryId: string,
): Promise<CalendarEntry | null> {
  const block = await findBlockById(db, portalId, entryId);
  const stay = block ? undefined : await findStayById(db, portalId, entryId);
  const found = block ?? stay;
  if (!found) return null;
  const nights = { from: found.start_date, to: found.end_date };
  const calendar = await getListingCalendar(db, portalId, found.listing_id, nights);
  if (block) {
    const shown = calendar.blocks.find((candidate) => candidate._id === block.id);
    return shown ? { kind: 'block', listingId: found.listing_id, block: shown } : null;
  }
  const booking = calendar.bookings.find((candidate) => candidate._id === entryId);
  if (!booking) return null;
  const windows = calendar.windows.filter((window) => window.stayId === entryId);
  return { kind: 'stay', listingId: found.listing_id, booking, windows };
}

/**
 * Takes an entry off its calendar by its id: the owner's block opens again (`unblock`); a feed's
 * block goes only when its feed drops it, and a stay is declined or cancelled as a stay (409 with
 * the way to do it), never deleted.
 */
export async function removeCalendarEntry(db: Database, context: ChangeContext, entryId: string) {
  const block = await findBlockById(db, context.portalId, entryId);
  if (block) {
    await changeCalendar(db, context, block.listing_id, { action: 'unblock', blockId: block.id });
    return;
  }
  if (await findStayById(db, context.portalId, entryId)) {
    throw AppError.conflict(
      'A stay is not deleted from the calendar: decline the request or cancel the stay (POST device/{listingId}/request/{stayId})',
    );
  }
  throw AppError.notFound('Calendar entry');
}

/** Each live listing of a portal with its time zone (its first lock's) and title. */
export async function listingsWithZones(db: Database, portalId: string, listingIds?: readonly string[]) {
  if (listingIds && listingIds.length === 0) return [];
  let query = db
    .selectFrom('listings')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('deleted_at', 'is', null);
  if (listingIds) query = query.where('id', 'in', [...listingIds]);
  const listings = await query.orderBy('title').orderBy('id').execute();
  if (listings.length === 0) return [];
  const locks = await db
    .selectFrom('listing_locks as ll')
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'll.device_id').onRef('d.portal_id', '=', 'll.portal_id'),
    )
    .select(['ll.listing_id', 'd.time_zone', 'll.position', 'd.name'])
    .where('ll.portal_id', '=', portalId)
    .where(
      'll.listing_id',
      'in',
      listings.map((l) => l.id),
    )
    .where('d.deleted_at', 'is', null)
    .orderBy('ll.position')
    .orderBy('d.name')
    .execute();
  const zone = new Map<string, string>();
  for (const lock of locks) if (!zone.has(lock.listing_id)) zone.set(lock.listing_id, lock.time_zone);
  return listings.map((listing) => ({ listing, timeZone: zone.get(listing.id) ?? 'UTC' }));
}

/**
 * GET calendar/upcoming: the portal's arrivals and departures from today (on each listing's
 * calendar) up to `days` ahead, one row each, paged; sorted by date (then time), guest or listing;
 * filtered by kind or listing.
 */
export async function getUpcoming(
  db: Database,
  portalId: string,
  query: UpcomingQuery,
  now = new Date(),
): Promise<UpcomingPage> {
  let listings = await listingsWithZones(db, portalId);
  if (query.filterBy === 'listingId') listings = listings.filter((l) => l.listing.id === query.filterValue);
  if (query.filterBy === 'kind' && query.filterValue !== 'arrival' && query.filterValue !== 'departure') {
    throw AppError.badRequest('filterValue must be arrival or departure', [
      { path: 'querystring.filterValue', message: 'must be arrival or departure' },
    ]);
  }
  if (listings.length === 0) return { items: [], total: 0 };
  const todays = new Map(listings.map((l) => [l.listing.id, localWallTime(now, l.timeZone).date]));
  const earliest = [...todays.values()].sort()[0]!;
  const latest = addDaysToDate([...todays.values()].sort().at(-1)!, query.days);
  const stays = await db
    .selectFrom('stays')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where(
      'listing_id',
      'in',
      listings.map((l) => l.listing.id),
    )
    .where('state', '=', 'approved')
    .where((eb) =>
      eb.or([
        eb.and([eb('start_date', '>=', earliest), eb('start_date', '<=', latest)]),
        eb.and([eb('end_date', '>=', earliest), eb('end_date', '<=', latest)]),
      ]),
    )
    .limit(5000)
    .execute();
  const byId = new Map(listings.map((l) => [l.listing.id, l]));
  const rows: UpcomingMovement[] = [];
  for (const stay of stays) {
    const { listing, timeZone } = byId.get(stay.listing_id)!;
    const today = todays.get(stay.listing_id)!;
    const last = addDaysToDate(today, query.days);
    const times = stayTimes(stay, listing);
    const base = {
      timeZone,
      stayId: stay.id,
      listingId: listing.id,
      listingTitle: listing.title,
      guestName: stay.guest_name,
      source: stay.source,
      accessState: stay.access_state,
    };
    if (stay.start_date >= today && stay.start_date <= last) {
      rows.push({
        _id: `${stay.id}:arrival`,
        kind: 'arrival',
        date: stay.start_date,
        time: times.checkInTime,
        ...base,
      });
    }
    if (stay.end_date >= today && stay.end_date <= last) {
      rows.push({
        _id: `${stay.id}:departure`,
        kind: 'departure',
        date: stay.end_date,
        time: times.checkOutTime,
        ...base,
      });
    }
  }
  let items = query.filterBy === 'kind' ? rows.filter((r) => r.kind === query.filterValue) : rows;
  if (query.search) {
    const term = query.search.toLowerCase();
    items = items.filter(
      (r) => r.guestName.toLowerCase().includes(term) || r.listingTitle.toLowerCase().includes(term),
    );
  }
  const key = (r: UpcomingMovement) =>
    query.sortBy === 'guestName'
      ? r.guestName.toLowerCase()
      : query.sortBy === 'listingTitle'
        ? r.listingTitle.toLowerCase()
        : // Departures before arrivals on the same day at the same time: the flat is free first.
          `${r.date} ${r.time} ${r.kind === 'departure' ? 0 : 1}`;
  items.sort((a, b) => {
    const order = key(a).localeCompare(key(b)) || a._id.localeCompare(b._id);
    return query.descending ? -order : order;
  });
  return { items: items.slice(query.skip, query.skip + query.limit), total: items.length };
}
