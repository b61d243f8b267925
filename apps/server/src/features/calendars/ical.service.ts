import crypto from 'node:crypto';
import {
  addDaysToDate,
  API_BASE_PATH,
  staysOverlap,
  type IcalFeed,
  type IcalFeedInput,
  type IcalSyncResult,
  type ListingIcal,
} from '@latchkey/shared';
import icalGenerator, { ICalCalendarMethod, ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { ListingIcalFeedRow, ListingRow, StayRow, StaysTable } from '../../db/schema';
import type { Insertable } from 'kysely';
import type { ChangeContext } from '../../http/access';
import { AppError } from '../../http/errors';
import { changeAccess } from '../access/touched-locks';
import { appendAuditEntry, recordChange } from '../audit/audit.repository';
import { insertNotificationOnce, listAdminEmails } from '../alerts/alerts.repository';
import { findListing, listLocksOfListing, updateListing } from '../listings/listings.repository';
import { requireListing } from '../listings/listings.service';
import { alertMail } from '../mail/mail.templates';
import { sendMail } from '../mail/send-mail';
import type { ShareTokens } from '../sharelock/share-tokens';
import { listingTimeZone, loadStayFacts, reconcileStayAccess } from '../stays/stay-access';
import { approveIn, type StayDeps } from '../stays/stays.service';
import { findStay, insertStay, updateStay } from '../stays/stays.repository';
import {
  countCurrentFeedStays,
  deleteBlock,
  deleteFeed,
  findFeed,
  insertBlock,
  insertFeed,
  listExported,
  listFeedBlocks,
  listFeedStays,
  listFeeds,
  updateBlockDates,
  updateFeed,
} from './calendar.repository';
import { todayOn } from './calendar.service';
import { fetchFeed, FeedFetchError, type FeedFetchOptions } from './feed-fetch';
import { FeedFormatError, guestNameOf, parseFeed, type FeedEvent } from './ical-parse';

/**
 * iCal both ways (issue 12, R2; docs/decisions.md "Rentals: calendars, iCal, reviews").
 * Export: each listing has a private feed (RFC 5545, ical-generator) at an unguessable derived
 * address, rotatable, carrying dates only. Import: feeds of other platforms, read periodically and
 * on demand; reservations become stays (source `ical`) whose guests get codes as any approved
 * stay's, changes and cancellations reach the locks at once, and a read that is empty where the
 * feed had events, or that cannot be read, is an error shown to the owner: nothing changes.
 */

export interface IcalDeps {
  stays: StayDeps;
  tokens: ShareTokens;
  /** PUBLIC_URL: the export feed's address is absolute (platforms fetch it). */
  publicUrl: string;
  fetch: Omit<FeedFetchOptions, 'etag' | 'lastModified'>;
  /** Minutes between periodic reads; 0: no periodic reads (a new feed is still due, for "sync now"). */
  syncMinutes: number;
  /** Where alert mail points. */
  alertsLink: string;
}

/** How far ahead imported reservations and blocks are taken (as for requests). */
const HORIZON_DAYS = 730;
/** After a failed read, the next periodic one comes at most this soon. */
const RETRY_MINUTES = 15;

// Export

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

// Feeds

function presentFeed(feed: ListingIcalFeedRow, stays: number): IcalFeed {
  return {
    _id: feed.id,
    listingId: feed.listing_id,
    name: feed.name,
    url: feed.url,
    mode: feed.mode,
    events: feed.event_count,
    stays,
    lastFetchAt: toIso(feed.last_fetch_at),
    lastSuccessAt: toIso(feed.last_success_at),
    lastError: feed.last_error,
    lastErrorAt: toIso(feed.last_error_at),
    lastWarning: feed.last_warning,
    nextFetchAt: toIso(feed.next_fetch_at),
    createdAt: toIso(feed.created_at),
  };
}

async function presentFeeds(db: Database, portalId: string, listingId: string, feeds: ListingIcalFeedRow[]) {
  const locks = await listLocksOfListing(db, portalId, listingId);
  const counts = await countCurrentFeedStays(
    db,
    portalId,
    feeds.map((f) => f.id),
    todayOn(locks),
  );
  return feeds.map((feed) => presentFeed(feed, counts.get(feed.id) ?? 0));
}

/** GET listing/{id}/ical: the export feed's address and the imported feeds with their state. */
export async function getListingIcal(
  db: Database,
  deps: Pick<IcalDeps, 'tokens' | 'publicUrl'>,
  portalId: string,
  listingId: string,
): Promise<ListingIcal> {
  const listing = await requireListing(db, portalId, listingId);
  const feeds = await listFeeds(db, portalId, [listingId]);
  return {
    exportUrl: exportUrl(deps, listing),
    exportRotatedAt: toIso(listing.ical_token_rotated_at),
    feeds: await presentFeeds(db, portalId, listingId, feeds),
  };
}

/** POST listing/{id}/ical/rotate: a new export address; the old one stops at once. */
export async function rotateExport(
  db: Database,
  deps: Pick<IcalDeps, 'tokens' | 'publicUrl'>,
  context: ChangeContext,
  listingId: string,
): Promise<ListingIcal> {
  await db.transaction().execute(async (trx) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    await updateListing(trx, context.portalId, listingId, {
      ical_token_version: listing.ical_token_version + 1,
      ical_token_rotated_at: nowIso(),
    });
    await recordChange(trx, context, {
      action: 'listing.ical.rotate',
      entityType: 'listing',
      entityId: listingId,
      after: { listing: listing.title, version: listing.ical_token_version + 1 },
    });
  });
  return getListingIcal(db, deps, context.portalId, listingId);
}

async function requireFeed(db: Database, portalId: string, listingId: string, feedId: string) {
  const feed = await findFeed(db, portalId, listingId, feedId);
  if (!feed) throw AppError.notFound('Feed');
  return feed;
}

/** The feed URL as the change log keeps it: the platforms put a secret in the query; it is left out. */
function loggedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return '';
  }
}

/** POST listing/{id}/ical/feed/new: a feed to import; due at once (the first read follows). */
export async function createFeed(
  db: Database,
  context: ChangeContext,
  listingId: string,
  input: Required<IcalFeedInput>,
): Promise<IcalFeed> {
  const id = crypto.randomUUID();
  await db.transaction().execute(async (trx) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    const existing = await listFeeds(trx, context.portalId, [listingId]);
    if (existing.length >= 10) throw AppError.conflict('A listing imports at most 10 calendars');
    if (existing.some((f) => f.url === input.url))
      throw AppError.conflict('This calendar is imported already');
    const at = nowIso();
    await insertFeed(trx, {
      id,
      portal_id: context.portalId,
      listing_id: listingId,
      name: input.name,
      url: input.url,
      mode: input.mode,
      next_fetch_at: at,
      created_at: at,
      updated_at: at,
    });
    await recordChange(trx, context, {
      action: 'listing.ical.feed.create',
      entityType: 'listing',
      entityId: listingId,
      after: { listing: listing.title, feed: input.name, url: loggedUrl(input.url), mode: input.mode },
    });
  });
  return presentFeed((await requireFeed(db, context.portalId, listingId, id))!, 0);
}

/** POST listing/{id}/ical/feed/{feedId}: rename, another address or mode (read again at once). */
export async function saveFeed(
  db: Database,
  context: ChangeContext,
  listingId: string,
  feedId: string,
  input: Required<IcalFeedInput>,
): Promise<IcalFeed> {
  await db.transaction().execute(async (trx) => {
    const listing = await requireListing(trx, context.portalId, listingId);
    const before = await requireFeed(trx, context.portalId, listingId, feedId);
    const moved = before.url !== input.url;
    await updateFeed(trx, context.portalId, feedId, {
      name: input.name,
      url: input.url,
      mode: input.mode,
      // Another address is another feed: its validators and its "had events" do not carry over.
      ...(moved && { etag: null, last_modified: null, event_count: 0 }),
      ...((moved || before.mode !== input.mode) && {
        next_fetch_at: nowIso(),
        etag: null,
        last_modified: null,
      }),
    });
    await recordChange(trx, context, {
      action: 'listing.ical.feed.update',
      entityType: 'listing',
      entityId: listingId,
      before: { feed: before.name, url: loggedUrl(before.url), mode: before.mode },
      after: { listing: listing.title, feed: input.name, url: loggedUrl(input.url), mode: input.mode },
    });
  });
  const [feed] = await presentFeeds(db, context.portalId, listingId, [
    await requireFeed(db, context.portalId, listingId, feedId),
  ]);
  return feed!;
}

/**
 * DELETE listing/{id}/ical/feed/{feedId}: stop importing. Its blocks go; the stays it brought stay
 * (their guests are real and keep their codes) and are the owner's to change or cancel from then on.
 */
export async function removeFeed(db: Database, context: ChangeContext, listingId: string, feedId: string) {
  await db.transaction().execute(async (trx) => {
    await requireListing(trx, context.portalId, listingId);
    const feed = await requireFeed(trx, context.portalId, listingId, feedId);
    await deleteFeed(trx, context.portalId, feedId);
    await recordChange(trx, context, {
      action: 'listing.ical.feed.delete',
      entityType: 'listing',
      entityId: listingId,
      before: { feed: feed.name, url: loggedUrl(feed.url) },
    });
  });
}

// Sync

interface Counts {
  added: number;
  changed: number;
  cancelled: number;
  flagged: number;
  blocks: number;
}

/** Who a sync acts for in the change log: the person who pressed "sync now", or nobody (the job). */
export interface SyncActor {
  userId: string | null;
  ip: string | null;
}

/**
 * Reads one feed and applies it. The caller holds the feed's claim (claimDue: the periodic job, or
 * "sync now"). Answers what changed; a read that fails is recorded on the feed (its last error,
 * an alert once per run of failures) and changes nothing.
 */
export async function syncFeed(
  db: Database,
  deps: IcalDeps,
  feed: ListingIcalFeedRow,
  options: { acceptEmpty?: boolean; actor?: SyncActor; now?: Date } = {},
): Promise<IcalSyncResult> {
  const now = options.now ?? new Date();
  const actor = options.actor ?? { userId: null, ip: null };
  const nothing: Counts = { added: 0, changed: 0, cancelled: 0, flagged: 0, blocks: 0 };
  const listing = await findListing(db, feed.portal_id, feed.listing_id);
  if (!listing) {
    // The listing was deleted: its feeds go with it.
    await deleteFeed(db, feed.portal_id, feed.id);
    throw AppError.notFound('Listing');
  }
  const fetchedAt = now.toISOString();

  const fail = async (message: string): Promise<IcalSyncResult> => {
    await recordFailure(db, deps, feed, listing, message, now);
    return { ...(await result(db, feed, listing.id, nothing)), ok: false, notModified: false };
  };

  let response;
  try {
    response = await fetchFeed(feed.url, {
      ...deps.fetch,
      // Accepting an empty read means reading it again in full.
      etag: options.acceptEmpty ? null : feed.etag,
      lastModified: options.acceptEmpty ? null : feed.last_modified,
    });
  } catch (error) {
    return fail(error instanceof FeedFetchError ? error.message : 'The feed could not be read');
  }
  if (response.status === 304) {
    await updateFeed(db, feed.portal_id, feed.id, {
      last_fetch_at: fetchedAt,
      last_success_at: fetchedAt,
      last_error: null,
      last_error_at: null,
      next_fetch_at: nextFetch(deps, now, true),
    });
    return { ...(await result(db, feed, listing.id, nothing)), ok: true, notModified: true };
  }
  return applyFeedText(db, deps, feed, listing, response.body, response, { ...options, actor, now });
}

/**
 * Applies a feed's text as read (a fetch, or the demo's bundled calendar): parsed, refused when it
 * cannot be read or is empty where the feed had events (unless accepted), else its reservations
 * and blocks applied and the feed's state recorded.
 */
export async function applyFeedText(
  db: Database,
  deps: IcalDeps,
  feed: ListingIcalFeedRow,
  listing: ListingRow,
  text: string,
  validators: { etag: string | null; lastModified: string | null },
  options: { acceptEmpty?: boolean; actor: SyncActor; now: Date },
): Promise<IcalSyncResult> {
  const { actor, now } = options;
  const nothing: Counts = { added: 0, changed: 0, cancelled: 0, flagged: 0, blocks: 0 };
  const fetchedAt = now.toISOString();
  const timeZone = listingTimeZone(await listLocksOfListing(db, feed.portal_id, listing.id));
  const fail = async (message: string): Promise<IcalSyncResult> => {
    await recordFailure(db, deps, feed, listing, message, now);
    return { ...(await result(db, feed, listing.id, nothing)), ok: false, notModified: false };
  };
  let parsed;
  try {
    parsed = parseFeed(text, timeZone, feed.mode);
  } catch (error) {
    return fail(error instanceof FeedFormatError ? error.message : 'The calendar cannot be read');
  }
  if (parsed.total === 0 && feed.event_count > 0 && !options.acceptEmpty) {
    return fail(
      `The feed came back empty, but it had ${feed.event_count} event${feed.event_count === 1 ? '' : 's'} at the last good read. ` +
        'Nothing was changed and every guest keeps their code. If every reservation there really was cancelled, sync again and accept the empty calendar.',
    );
  }

  const counts: Counts = { ...nothing };
  const warnings = await apply(db, deps, feed, listing, parsed.events, counts, actor, now);
  if (parsed.skipped.length > 0) {
    warnings.push(
      `${parsed.skipped.length} event${parsed.skipped.length === 1 ? '' : 's'} left out (${parsed.skipped.slice(0, 3).join('; ')})`,
    );
  }
  await db.transaction().execute(async (trx) => {
    await updateFeed(trx, feed.portal_id, feed.id, {
      etag: validators.etag,
      last_modified: validators.lastModified,
      event_count: parsed.total,
      last_fetch_at: fetchedAt,
      last_success_at: fetchedAt,
      last_error: null,
      last_error_at: null,
      last_warning: warnings.length > 0 ? warnings.join('. ').slice(0, 1000) : null,
      next_fetch_at: nextFetch(deps, now, true),
    });
    if (counts.added + counts.changed + counts.cancelled > 0 || options.acceptEmpty) {
      await appendAuditEntry(trx, feed.portal_id, {
        actorUserId: actor.userId,
        action: 'listing.ical.sync',
        entityType: 'listing',
        entityId: listing.id,
        after: {
          feed: feed.name,
          events: parsed.total,
          ...counts,
          acceptedEmpty: options.acceptEmpty === true,
        },
        ip: actor.ip,
      });
    }
  });
  return { ...(await result(db, feed, listing.id, counts)), ok: true, notModified: false };
}

async function result(db: Database, feed: ListingIcalFeedRow, listingId: string, counts: Counts) {
  const fresh = (await findFeed(db, feed.portal_id, listingId, feed.id)) ?? feed;
  const [presented] = await presentFeeds(db, feed.portal_id, listingId, [fresh]);
  return { feed: presented!, ...counts };
}

function nextFetch(deps: IcalDeps, now: Date, ok: boolean): string {
  const minutes =
    deps.syncMinutes > 0
      ? ok
        ? deps.syncMinutes
        : Math.min(deps.syncMinutes, RETRY_MINUTES)
      : 60 * 24 * 365;
  return new Date(now.getTime() + minutes * 60_000).toISOString();
}

/** A failed read: kept on the feed; the first failure after a good read alerts the portal's admins. */
async function recordFailure(
  db: Database,
  deps: IcalDeps,
  feed: ListingIcalFeedRow,
  listing: ListingRow,
  message: string,
  now: Date,
) {
  const at = now.toISOString();
  await db.transaction().execute(async (trx) => {
    await updateFeed(trx, feed.portal_id, feed.id, {
      last_fetch_at: at,
      last_error: message,
      last_error_at: at,
      next_fetch_at: nextFetch(deps, now, false),
    });
    // One alert per run of failures (keyed by the last good read), stored, and mailed to the admins.
    const title = `The ${feed.name} calendar of ${listing.title} could not be imported`;
    const fresh = await insertNotificationOnce(trx, {
      id: crypto.randomUUID(),
      portal_id: feed.portal_id,
      rule_id: null,
      kind: 'stay_access',
      device_id: null,
      user_id: null,
      title,
      message: message.slice(0, 500),
      once_key: `ical:${feed.id}:${toIso(feed.last_success_at) ?? 'never'}`,
      created_at: at,
    });
    if (!fresh) return;
    const mail = alertMail({ title, message, link: deps.alertsLink });
    for (const to of await listAdminEmails(trx, feed.portal_id)) {
      await sendMail(trx, 'system', { portalId: feed.portal_id, template: 'alert', to, ...mail });
    }
  });
}

const nightsOf = (r: { start_date: string; end_date: string }) => ({
  startDate: r.start_date,
  endDate: r.end_date,
});

/** Applies a feed's events to the listing's stays and blocks; answers warnings for the owner. */
async function apply(
  db: Database,
  deps: IcalDeps,
  feed: ListingIcalFeedRow,
  listing: ListingRow,
  events: FeedEvent[],
  counts: Counts,
  actor: SyncActor,
  now: Date,
): Promise<string[]> {
  const portalId = feed.portal_id;
  const locks = await listLocksOfListing(db, portalId, listing.id);
  const today = todayOn(locks, now);
  const horizon = addDaysToDate(today, HORIZON_DAYS);
  const warnings: string[] = [];
  const relevant = events.filter((e) => e.endDate >= today && e.startDate <= horizon);
  const reservations = relevant.filter((e) => e.kind === 'reservation' && !e.cancelled);
  const blockEvents = relevant.filter((e) => e.kind === 'block' && !e.cancelled);
  const liveUids = new Set(reservations.map((e) => e.uid));
  const audit = (trx: Database, action: string, stayId: string, after: object, before?: object) =>
    appendAuditEntry(trx, portalId, {
      actorUserId: actor.userId,
      action,
      entityType: 'stay',
      entityId: stayId,
      before,
      after: { feed: feed.name, ...after },
      ip: actor.ip,
    });
  const existing = new Map(
    (await listFeedStays(db, portalId, feed.id)).map((s) => [s.external_ref ?? '', s]),
  );
  const touched: string[] = [];

  for (const event of reservations) {
    const guestName = guestNameOf(event.summary, feed.name);
    const note = event.description.slice(0, 1000);
    const current = existing.get(event.uid);
    if (
      current &&
      (current.state === 'declined' || (current.state === 'cancelled' && Number(current.ical_gone) === 0))
    ) {
      // The owner turned it down or cancelled it here: their word stands.
      continue;
    }
    const datesChanged =
      current !== undefined && (current.start_date !== event.startDate || current.end_date !== event.endDate);
    const needsApproval =
      !current || current.state !== 'approved' || datesChanged || Number(current.ical_gone) === 1;
    if (current && !needsApproval) {
      if (current.guest_name !== guestName || current.note !== note) {
        await changeAccess(db, async (trx, touch) => {
          await updateStay(trx, portalId, current.id, { guest_name: guestName, note });
          const stay = (await findStay(trx, portalId, listing.id, current.id))!;
          await reconcileStayAccess(trx, touch, await loadStayFacts(trx, stay), now);
        });
      }
      continue;
    }
    const stayId = current?.id ?? crypto.randomUUID();
    /** The reservation as a new stay: a request, approved below when its locks can take it. */
    const importedStay = (at: string): Insertable<StaysTable> => ({
      id: stayId,
      portal_id: portalId,
      listing_id: listing.id,
      guest_name: guestName,
      guest_email: '',
      guest_phone: null,
      note,
      start_date: event.startDate,
      end_date: event.endDate,
      check_in_time: null,
      check_out_time: null,
      state: 'requested',
      source: 'ical',
      external_ref: event.uid,
      ical_feed_id: feed.id,
      reason: null,
      guest_user_id: null,
      access_changed_at: null,
      guest_mailed_at: null,
      decided_at: null,
      decided_by: null,
      created_at: at,
      updated_at: at,
    });
    try {
      await changeAccess(db, async (trx, touch) => {
        const at = nowIso();
        if (!current) {
          await insertStay(trx, importedStay(at));
        } else {
          await updateStay(trx, portalId, stayId, {
            guest_name: guestName,
            note,
            ical_gone: 0,
            reason: null,
            // A cancelled reservation the feed lists again is a request once more, approved below.
            ...(current.state === 'cancelled' && { state: 'requested' }),
          });
        }
        const stay = (await findStay(trx, portalId, listing.id, stayId))!;
        const wanted: StayRow = { ...stay, start_date: event.startDate, end_date: event.endDate };
        const approved = await approveIn(trx, touch, wanted, listing, null, now, { imported: true });
        if (!current) {
          await audit(trx, 'stay.import.add', stayId, {
            guestName,
            startDate: approved.start_date,
            endDate: approved.end_date,
          });
        } else {
          await audit(
            trx,
            'stay.import.change',
            stayId,
            { startDate: approved.start_date, endDate: approved.end_date, state: approved.state },
            { startDate: current.start_date, endDate: current.end_date, state: current.state },
          );
        }
      });
      if (current) counts.changed++;
      else counts.added++;
      touched.push(stayId);
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 409) throw error;
      // A full lock, or a listing without locks: the reservation is kept as a request for the owner.
      await db.transaction().execute(async (trx) => {
        const at = nowIso();
        if (!current) {
          await insertStay(trx, importedStay(at));
          await audit(trx, 'stay.import.add', stayId, {
            guestName,
            startDate: event.startDate,
            endDate: event.endDate,
            state: 'requested',
            why: error.message,
          });
          counts.added++;
        }
      });
      warnings.push(`${guestName} (${event.startDate} to ${event.endDate}) waits for you: ${error.message}`);
      touched.push(stayId);
    }
  }

  // Reservations the feed no longer lists, or lists as cancelled: cancelled, at once on the locks.
  // Stays that have ended are history and are left as they are.
  for (const stay of existing.values()) {
    if (liveUids.has(stay.external_ref ?? '')) continue;
    if (stay.end_date < today) continue;
    if (stay.state !== 'approved' && stay.state !== 'requested') continue;
    const cancelledThere = events.some((e) => e.uid === stay.external_ref && e.cancelled);
    const reason = cancelledThere ? `Cancelled on ${feed.name}` : `No longer on the ${feed.name} calendar`;
    await changeAccess(db, async (trx, touch) => {
      await updateStay(trx, portalId, stay.id, {
        state: stay.state === 'approved' ? 'cancelled' : 'declined',
        reason,
        ical_gone: 1,
      });
      const fresh = (await findStay(trx, portalId, listing.id, stay.id))!;
      await reconcileStayAccess(trx, touch, await loadStayFacts(trx, fresh), now);
      await audit(trx, 'stay.import.cancel', stay.id, { state: fresh.state, reason }, { state: stay.state });
    });
    counts.cancelled++;
    touched.push(stay.id);
  }

  // Blocks: the feed's nights marked not available, kept in step with it.
  await db.transaction().execute(async (trx) => {
    const blocks = new Map(
      (await listFeedBlocks(trx, portalId, feed.id)).map((b) => [b.external_ref ?? '', b]),
    );
    const wanted = new Set<string>();
    for (const event of blockEvents) {
      wanted.add(event.uid);
      const block = blocks.get(event.uid);
      const note = event.summary.slice(0, 200);
      if (!block) {
        await insertBlock(trx, {
          id: crypto.randomUUID(),
          portal_id: portalId,
          listing_id: listing.id,
          start_date: event.startDate,
          end_date: event.endDate,
          note,
          source: 'ical',
          ical_feed_id: feed.id,
          external_ref: event.uid,
          created_by: null,
          created_at: nowIso(),
        });
      } else if (
        block.start_date !== event.startDate ||
        block.end_date !== event.endDate ||
        block.note !== note
      ) {
        await updateBlockDates(trx, portalId, block.id, {
          start_date: event.startDate,
          end_date: event.endDate,
          note,
        });
      }
    }
    for (const [uid, block] of blocks) if (!wanted.has(uid)) await deleteBlock(trx, portalId, block.id);
    counts.blocks = wanted.size;
  });

  // Flags: a new or changed reservation overlapping another booking or an owner's block.
  if (touched.length > 0) {
    const stays = await db
      .selectFrom('stays')
      .selectAll()
      .where('portal_id', '=', portalId)
      .where('listing_id', '=', listing.id)
      .where('state', '=', 'approved')
      .where('end_date', '>=', today)
      .execute();
    const ownerBlocks = await db
      .selectFrom('listing_blocks')
      .selectAll()
      .where('portal_id', '=', portalId)
      .where('listing_id', '=', listing.id)
      .where('source', '=', 'owner')
      .where('end_date', '>=', today)
      .execute();
    for (const id of new Set(touched)) {
      const stay = stays.find((s) => s.id === id);
      if (!stay) continue;
      const other = stays.find((o) => o.id !== id && staysOverlap(nightsOf(o), nightsOf(stay)));
      const block = ownerBlocks.find((b) => staysOverlap(nightsOf(b), nightsOf(stay)));
      if (!other && !block) continue;
      counts.flagged++;
      warnings.push(
        `${stay.guest_name} (${stay.start_date} to ${stay.end_date}) overlaps ${
          other
            ? `${other.guest_name}'s stay (${other.start_date} to ${other.end_date})`
            : `nights you blocked (${block!.start_date} to ${block!.end_date})`
        }: a double booking to sort out`,
      );
    }
    for (const id of new Set(touched)) {
      const stay = await findStay(db, portalId, listing.id, id);
      if (stay) deps.stays.announce?.(stay);
    }
  }
  return warnings;
}

/**
 * POST listing/{id}/ical/feed/{feedId}/sync: reads the feed now, holding it as the periodic
 * import does, so a read already under way on any server is not run twice (409 then).
 */
export async function syncNow(
  db: Database,
  deps: IcalDeps,
  context: ChangeContext,
  listingId: string,
  feedId: string,
  acceptEmpty: boolean,
  holds: {
    hold: (feedId: string, now: Date) => Promise<ListingIcalFeedRow | null>;
    release: (feedId: string) => Promise<void>;
  },
): Promise<IcalSyncResult> {
  await requireListing(db, context.portalId, listingId);
  const feed = await requireFeed(db, context.portalId, listingId, feedId);
  const now = new Date();
  const held = await holds.hold(feed.id, now);
  if (!held) throw AppError.conflict('This calendar is being read right now; look again in a moment');
  try {
    return await syncFeed(db, deps, held, {
      acceptEmpty,
      actor: { userId: context.actorUserId, ip: context.ip },
      now,
    });
  } finally {
    await holds.release(feed.id);
  }
}
