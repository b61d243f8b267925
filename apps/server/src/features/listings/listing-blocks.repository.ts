import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import type { ListingBlocksTable } from '../../db/schema';

// A listing's blocked nights: the owner's own and those an imported feed brought (calendars). Stays
// read them to refuse taken nights; calendars write them. Every query is scoped by portal id.

/** Blocks of a listing whose nights overlap [from, to) (all of them without a range). */
export function listBlocks(
  db: Database,
  portalId: string,
  listingId: string,
  window?: { from: string; to: string },
) {
  let query = db
    .selectFrom('listing_blocks')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId);
  if (window) query = query.where('start_date', '<', window.to).where('end_date', '>', window.from);
  return query.orderBy('start_date').orderBy('id').limit(2000).execute();
}

/** Blocks of a listing overlapping these nights (owner's only, or from feeds too). */
export function findOverlappingBlocks(
  db: Database,
  portalId: string,
  listingId: string,
  nights: { startDate: string; endDate: string },
  sources: readonly ('owner' | 'ical')[] = ['owner', 'ical'],
) {
  return db
    .selectFrom('listing_blocks')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('source', 'in', [...sources])
    .where('start_date', '<', nights.endDate)
    .where('end_date', '>', nights.startDate)
    .orderBy('start_date')
    .execute();
}

/** A block of any listing of the portal, by its id alone (the collection API names no listing). */
export function findBlockById(db: Database, portalId: string, blockId: string) {
  return db
    .selectFrom('listing_blocks')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', blockId)
    .executeTakeFirst();
}

export function findBlock(db: Database, portalId: string, listingId: string, blockId: string) {
  return db
    .selectFrom('listing_blocks')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('listing_id', '=', listingId)
    .where('id', '=', blockId)
    .executeTakeFirst();
}

export async function insertBlock(db: Database, row: Insertable<ListingBlocksTable>) {
  await db.insertInto('listing_blocks').values(row).execute();
}

export async function updateBlockDates(
  db: Database,
  portalId: string,
  blockId: string,
  patch: { start_date: string; end_date: string; note: string },
) {
  await db
    .updateTable('listing_blocks')
    .set(patch)
    .where('portal_id', '=', portalId)
    .where('id', '=', blockId)
    .execute();
}

/** Many blocks in one statement (an import's new blocks). */
export async function insertBlocks(db: Database, rows: Insertable<ListingBlocksTable>[]) {
  if (rows.length > 0) await db.insertInto('listing_blocks').values(rows).execute();
}

/** Many blocks of a portal by id in one statement (an import's removed blocks). */
export async function deleteBlocks(db: Database, portalId: string, blockIds: string[]) {
  if (blockIds.length === 0) return;
  await db
    .deleteFrom('listing_blocks')
    .where('portal_id', '=', portalId)
    .where('id', 'in', blockIds)
    .execute();
}

export async function deleteBlock(db: Database, portalId: string, blockId: string) {
  await db.deleteFrom('listing_blocks').where('portal_id', '=', portalId).where('id', '=', blockId).execute();
}
