import type { Insertable, Updateable } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ListingIcalFeedsTable, StayRow } from '../../db/schema';

// Imported feeds and the stays a calendar shows (blocked nights are the listing's:
// listings/listing-blocks.repository.ts). Every query is scoped by portal
// id, but the import job's, which looks across portals for feeds that are due (claim-due.ts).

/** Stays of a listing in these states whose nights overlap [from, to). */
export function listStaysBetween(
  db: Database,
  portalId: string,
  listingId: string,
  window: { from: string; to: string },
  states: readonly StayRow['state'][],
) {
  return db
    .selectFrom('stays')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('state', 'in', [...states])
    .where('start_date', '<', window.to)
    .where('end_date', '>', window.from)
    .orderBy('start_date')
    .orderBy('id')
    .limit(2000)
    .execute();
}

/**
 * A listing's approved stays and the owner's blocks that end after `endingAfter`, each in date
 * order. The export feed carries them (listExported); an import looks for the double bookings it
 * made among them (ical-import.ts). At most `limit` of each, when given.
 */
export async function listApprovedStaysAndOwnerBlocks(
  db: Database,
  portalId: string,
  listingId: string,
  endingAfter: string,
  limit?: number,
) {
  const [stays, blocks] = await Promise.all([
    db
      .selectFrom('stays')
      .select(['id', 'guest_name', 'start_date', 'end_date', 'updated_at'])
      .where('portal_id', '=', portalId)
      .where('listing_id', '=', listingId)
      .where('state', '=', 'approved')
      .where('end_date', '>', endingAfter)
      .orderBy('start_date')
      .orderBy('id')
      .$if(limit !== undefined, (query) => query.limit(limit!))
      .execute(),
    db
      .selectFrom('listing_blocks')
      .select(['id', 'start_date', 'end_date', 'created_at'])
      .where('portal_id', '=', portalId)
      .where('listing_id', '=', listingId)
      .where('source', '=', 'owner')
      .where('end_date', '>', endingAfter)
      .orderBy('start_date')
      .$if(limit !== undefined, (query) => query.limit(limit!))
      .execute(),
  ]);
  return { stays, blocks };
}

/** Approved stays and owner blocks of a listing that end after `fromDate`: what the export feed carries. */
export function listExported(db: Database, portalId: string, listingId: string, fromDate: string) {
  return listApprovedStaysAndOwnerBlocks(db, portalId, listingId, fromDate, 3000);
}

/**
 * Whether a stay of the listing was decided (approved, refused…) at or after `since` other than by
 * this feed's import: someone else took room on the listing's locks meanwhile.
 */
export async function decidedElsewhereSince(
  db: Database,
  portalId: string,
  listingId: string,
  feedId: string,
  since: string,
): Promise<boolean> {
  const others = await db
    .selectFrom('stays')
    .select('id')
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('decided_at', '>=', since)
    .where((eb) => eb.or([eb('ical_feed_id', 'is', null), eb('ical_feed_id', '!=', feedId)]))
    .limit(1)
    .execute();
  return others.length > 0;
}

// Feeds

export function listFeeds(db: Database, portalId: string, listingIds: string[]) {
  if (listingIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('listing_ical_feeds')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', 'in', listingIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findFeed(db: Database, portalId: string, listingId: string, feedId: string) {
  return db
    .selectFrom('listing_ical_feeds')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('id', '=', feedId)
    .executeTakeFirst();
}

export async function insertFeed(db: Database, row: Insertable<ListingIcalFeedsTable>) {
  await db.insertInto('listing_ical_feeds').values(row).execute();
}

export async function updateFeed(
  db: Database,
  portalId: string,
  feedId: string,
  patch: Updateable<ListingIcalFeedsTable>,
) {
  await db
    .updateTable('listing_ical_feeds')
    .set({ ...patch, updated_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', feedId)
    .execute();
}

export async function deleteFeed(db: Database, portalId: string, feedId: string) {
  await db
    .deleteFrom('listing_blocks')
    .where('portal_id', '=', portalId)
    .where('ical_feed_id', '=', feedId)
    .execute();
  await db
    .deleteFrom('listing_ical_feeds')
    .where('portal_id', '=', portalId)
    .where('id', '=', feedId)
    .execute();
}

/** Every stay a feed brought, any state. */
export function listFeedStays(db: Database, portalId: string, feedId: string) {
  return db
    .selectFrom('stays')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('ical_feed_id', '=', feedId)
    .execute();
}

export function listFeedBlocks(db: Database, portalId: string, feedId: string) {
  return db
    .selectFrom('listing_blocks')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('ical_feed_id', '=', feedId)
    .execute();
}

/** Per feed, its approved stays that have not ended by `today`. */
export async function countCurrentFeedStays(
  db: Database,
  portalId: string,
  feedIds: string[],
  today: string,
) {
  if (feedIds.length === 0) return new Map<string, number>();
  const rows = await db
    .selectFrom('stays')
    .select(['ical_feed_id', (eb) => eb.fn.countAll().as('n')])
    .where('portal_id', '=', portalId)
    .where('ical_feed_id', 'in', feedIds)
    .where('state', '=', 'approved')
    .where('end_date', '>=', today)
    .groupBy('ical_feed_id')
    .execute();
  return new Map(rows.map((r) => [String(r.ical_feed_id), Number(r.n)]));
}

/** The names of feeds by id, for the stays and blocks that name them. */
export async function feedNames(db: Database, portalId: string, feedIds: (string | null)[]) {
  const ids = [...new Set(feedIds.filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .selectFrom('listing_ical_feeds')
    .select(['id', 'name'])
    .where('portal_id', '=', portalId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
