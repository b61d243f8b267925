// A listing's iCal settings as its owner sees and changes them: the export address (shown,
// rotated) and the feeds it imports (added, changed, removed, "sync now" queued). Apart from the
// public export feed (ical-export.service.ts) and from the read of a feed, which only the import
// job runs (ical-sync.service.ts).
import crypto from 'node:crypto';
import { icalSyncOutcomeSchema, type IcalFeed, type IcalFeedInput, type ListingIcal } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { ListingIcalFeedRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { listLocksOfListing, updateListing } from '../listings/listings.repository';
import { requireListing } from '../listings/listings.service';
import {
  countCurrentFeedStays,
  deleteFeed,
  findFeed,
  insertFeed,
  listFeeds,
  updateFeed,
} from './calendar.repository';
import { todayOn } from './calendar.service';
import { checkFeedUrl, FeedFetchError } from './feed-fetch';
import type { IcalDeps } from './ical-deps';
import { exportUrl } from './ical-export.service';

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

/** Feeds as their owner sees them, each with the approved stays it brought that have not ended. */
export async function presentFeeds(
  db: Database,
  portalId: string,
  listingId: string,
  feeds: ListingIcalFeedRow[],
) {
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
