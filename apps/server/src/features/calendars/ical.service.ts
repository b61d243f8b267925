import crypto from 'node:crypto';
import {
  addDaysToDate,
  API_BASE_PATH,
  icalSyncOutcomeSchema,
  toSafeText,
  type IcalFeed,
  type IcalFeedInput,
  type IcalSyncOutcome,
  type IcalSyncResult,
  type ListingIcal,
} from '@latchkey/shared';
import icalGenerator, { ICalCalendarMethod, ICalEventStatus, ICalEventTransparency } from 'ical-generator';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { ListingIcalFeedRow, ListingRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { appendAuditEntry, recordChange } from '../../base/audit/audit.repository';
import { insertNotificationOnce, listAdminEmails } from '../alerts/alerts.repository';
import { findListing, listLocksOfListing, updateListing } from '../listings/listings.repository';
import { requireListing } from '../listings/listings.service';
import { alertMail } from '../../base/mail/mail.templates';
import { sendMail } from '../../base/mail/send-mail';
import type { ShareTokens } from '../rental/share-tokens';
import { listingTimeZone } from '../listings/listing-clock';
import type { StayDeps } from '../rental/rental-context';
import {
  countCurrentFeedStays,
  deleteFeed,
  findFeed,
  insertFeed,
  listExported,
  listFeeds,
  updateFeed,
} from './calendar.repository';
import { todayOn } from './calendar.service';
import { checkFeedUrl, fetchFeed, FeedFetchError, type FeedFetchOptions } from './feed-fetch';
import { applyImport, type ImportCounts, type SyncActor } from './ical-import';
import { FeedFormatError, parseFeed } from './ical-parse';

/**
 * iCal both ways (issue 12, R2; docs/decisions.md "Rentals: calendars, iCal, reviews").
 * Export: each listing has a private feed (RFC 5545, ical-generator) at an unguessable derived
 * address, rotatable, carrying dates only. Import: feeds of other platforms, read periodically and
 * on demand; reservations become stays (source `ical`) whose guests get codes as any approved
 * stay's, changes and cancellations reach the locks at once, and a read that is empty where the
 * feed had events, or that cannot be read, is an error shown to the owner: nothing changes.
 *
 * Here: the export feed, the feeds' records, and one read of a feed (fetch, parse, record the
 * outcome). Reads run only in the import job (ical-import-job.ts; "sync now" queues one), and
 * applying a read's events to stays and blocks is ical-import.ts (docs/decisions.md "iCal imports
 * run as background work").
 */

export interface IcalDeps {
  stays: StayDeps;
  tokens: ShareTokens;
  /** PUBLIC_URL: the export feed's address is absolute (platforms fetch it). */
  publicUrl: string;
  fetch: Omit<FeedFetchOptions, 'etag' | 'lastModified'>;
  /** Minutes between periodic reads; 0: no periodic reads (a new feed is still due, for "sync now"). */
  syncMinutes: number;
  /** Seconds between two "sync now" of one feed (ICAL_SYNC_NOW_SECONDS). */
  syncNowSeconds: number;
  /** Where alert mail points. */
  alertsLink: string;
}

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
    syncing: isSyncing(feed, new Date()),
    lastResult: feed.last_result ? icalSyncOutcomeSchema.parse(JSON.parse(feed.last_result)) : null,
    createdAt: toIso(feed.created_at)!,
  };
}

/** A read is under way (held), or queued by "sync now" and not yet taken by the job. */
function isSyncing(feed: ListingIcalFeedRow, now: Date): boolean {
  const held = toIso(feed.syncing_until);
  if (held && held > now.toISOString()) return true;
  const requested = toIso(feed.sync_requested_at);
  return requested !== null && toIso(feed.next_fetch_at)! <= requested;
}

/**
 * A feed address as entered (create, update): refused with a 400 on `url` when it names this
 * server or a private network by a literal address or `localhost` (checkFeedUrl, the read's own
 * check; names are checked again as each read resolves them).
 */
function checkEnteredUrl(deps: Pick<IcalDeps, 'fetch'>, url: string): void {
  try {
    checkFeedUrl(url, deps.fetch.allowPrivateHosts);
  } catch (error) {
    if (!(error instanceof FeedFetchError)) throw error;
    throw AppError.badRequest(`url: ${error.message}`, [{ path: 'body.url', message: error.message }]);
  }
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
  deps: Pick<IcalDeps, 'fetch'>,
  context: ChangeContext,
  listingId: string,
  input: Required<IcalFeedInput>,
): Promise<IcalFeed> {
  checkEnteredUrl(deps, input.url);
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
  deps: Pick<IcalDeps, 'fetch'>,
  context: ChangeContext,
  listingId: string,
  feedId: string,
  input: Required<IcalFeedInput>,
): Promise<IcalFeed> {
  checkEnteredUrl(deps, input.url);
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

type Counts = ImportCounts;
export type { SyncActor } from './ical-import';

/** A read ended: the queued "sync now" it answered is done (its actor and acceptEmpty go). */
const requestServed = { sync_requested_by: null, sync_requested_ip: null, sync_accept_empty: 0 };

/** What the read did, as the feed keeps it for the owner (`lastResult`). */
function outcome(now: Date, counts: Counts, ok: boolean, notModified: boolean): string {
  const kept: IcalSyncOutcome = { at: now.toISOString(), ok, notModified, ...counts };
  return JSON.stringify(kept);
}

/**
 * Reads one feed and applies it, in the import job (ical-import-job.ts) only. The caller holds the
 * feed (`IcalImporter.hold`). A queued "sync now" on the feed's row says who asked and whether an
 * empty read is accepted. Answers what changed; a read that fails is recorded on the feed (its
 * last error, an alert once per run of failures) and changes nothing.
 */
export async function syncFeed(
  db: Database,
  deps: IcalDeps,
  feed: ListingIcalFeedRow,
  options: { acceptEmpty?: boolean; actor?: SyncActor; now?: Date } = {},
): Promise<IcalSyncResult> {
  const now = options.now ?? new Date();
  // A queued "sync now" says who asked and whether an empty read is accepted.
  const actor = options.actor ?? { userId: feed.sync_requested_by, ip: feed.sync_requested_ip };
  options = { ...options, acceptEmpty: options.acceptEmpty ?? Number(feed.sync_accept_empty) === 1 };
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
      last_result: outcome(now, nothing, true, true),
      ...requestServed,
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
    parsed = await parseFeed(text, timeZone, feed.mode);
  } catch (error) {
    return fail(error instanceof FeedFormatError ? error.message : 'The calendar cannot be read');
  }
  if (parsed.total === 0 && feed.event_count > 0 && !options.acceptEmpty) {
    return fail(
      `The feed came back empty, but it had ${feed.event_count} event${feed.event_count === 1 ? '' : 's'} at the last good read. ` +
        'Nothing was changed and every guest keeps their code. If every reservation there really was cancelled, sync again and accept the empty calendar.',
    );
  }

  const { counts, warnings } = await applyImport(db, feed, listing, parsed.events, {
    actor,
    now,
    announce: deps.stays.announce,
  });
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
      last_result: outcome(now, counts, true, false),
      ...requestServed,
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
  raw: string,
  now: Date,
) {
  const at = now.toISOString();
  // The message may quote the platform's answer (a parser's error): stored, so made storable.
  const message = toSafeText(raw, { lines: true }).slice(0, 2000);
  await db.transaction().execute(async (trx) => {
    await updateFeed(trx, feed.portal_id, feed.id, {
      last_fetch_at: at,
      last_error: message,
      last_error_at: at,
      next_fetch_at: nextFetch(deps, now, false),
      last_result: outcome(now, { added: 0, changed: 0, cancelled: 0, flagged: 0, blocks: 0 }, false, false),
      ...requestServed,
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

/**
 * POST listing/{id}/ical/feed/{feedId}/sync: queues a read of the feed for the import job and
 * answers the feed at once (`syncing`); the route wakes this server's importer. A read under way is
 * not queued again (409); one request per feed per `syncNowSeconds` (429 with Retry-After), so
 * pressing "sync now" can never make the server read and apply feeds back to back.
 */
export async function requestSync(
  db: Database,
  deps: Pick<IcalDeps, 'syncNowSeconds'>,
  context: ChangeContext,
  listingId: string,
  feedId: string,
  acceptEmpty: boolean,
): Promise<IcalFeed> {
  await requireListing(db, context.portalId, listingId);
  const feed = await requireFeed(db, context.portalId, listingId, feedId);
  const now = new Date();
  const at = now.toISOString();
  const earliest = new Date(now.getTime() - deps.syncNowSeconds * 1000).toISOString();
  const refuse = (row: ListingIcalFeedRow): never => {
    const until = toIso(row.syncing_until);
    if (until && until > at)
      throw AppError.conflict('This calendar is being read right now; look again in a moment');
    const last = toIso(row.sync_requested_at);
    if (last && last > earliest) {
      throw AppError.rateLimited(deps.syncNowSeconds - (now.getTime() - Date.parse(last)) / 1000);
    }
    throw AppError.conflict('This calendar is being read right now; look again in a moment');
  };
  if ((toIso(feed.syncing_until) ?? '') > at || (toIso(feed.sync_requested_at) ?? '') > earliest)
    refuse(feed);
  // One conditional update: two requests at once (on any servers) queue one read.
  const [queued] = await db
    .updateTable('listing_ical_feeds')
    .set({
      next_fetch_at: at,
      sync_requested_at: at,
      sync_requested_by: context.actorUserId,
      sync_requested_ip: context.ip,
      sync_accept_empty: acceptEmpty ? 1 : 0,
      updated_at: at,
    })
    .where('portal_id', '=', context.portalId)
    .where('id', '=', feed.id)
    .where((eb) => eb.or([eb('syncing_until', 'is', null), eb('syncing_until', '<=', at)]))
    .where((eb) => eb.or([eb('sync_requested_at', 'is', null), eb('sync_requested_at', '<=', earliest)]))
    .returningAll()
    .execute();
  if (!queued) refuse(await requireFeed(db, context.portalId, listingId, feedId));
  const [presented] = await presentFeeds(db, context.portalId, listingId, [queued!]);
  return presented!;
}
