// One read of an imported feed, in the import job (ical-import-job.ts) only: fetched, parsed,
// applied (ical-import.ts), and its outcome recorded on the feed, a failure alerting the admins.
// Apart from the feeds' records (ical-feeds.service.ts), which requests change and which only
// queue a read.
import crypto from 'node:crypto';
import { toSafeText, type IcalSyncOutcome, type IcalSyncResult } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toIso } from '../../db/mappers';
import type { ListingIcalFeedRow, ListingRow } from '../../db/schema';
import { AppError } from '../../base/http/errors';
import { appendAuditEntry } from '../../base/audit/audit.repository';
import { insertNotificationOnce, listAdminEmails } from '../alerts/alerts.repository';
import { findListing, listLocksOfListing } from '../listings/listings.repository';
import { alertMail } from '../../base/mail/mail.templates';
import { sendMail } from '../../base/mail/send-mail';
import { listingTimeZone } from '../listings/listing-clock';
import { deleteFeed, findFeed, updateFeed } from './calendar.repository';
import { fetchFeed, FeedFetchError } from './feed-fetch';
import type { IcalDeps } from './ical-deps';
import { presentFeeds } from './ical-feeds.service';
import { applyImport, type ImportCounts, type SyncActor } from './ical-import';
import { FeedFormatError, parseFeed } from './ical-parse';

/** After a failed read, the next periodic one comes at most this soon. */
const RETRY_MINUTES = 15;

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
