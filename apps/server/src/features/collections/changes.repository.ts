import { PostgresAdapter, sql } from 'kysely';
import type { Database } from '../../db/database';

/** One entry of the change log: a record of a collection changed (or deleted) in a portal. */
export interface CollectionChange {
  recordId: string;
  deleted: boolean;
}

/**
 * The changes of one collection in one portal after `since`, from collection_changes (kept by
 * database triggers on the tables behind each collection, db/migrations/…-0042-collections.ts):
 * at most `limit`, oldest first, and the cursor to give next time.
 *
 * A cursor is `<position>.<sequence>`. On SQLite one transaction writes at a time, so the change
 * log's sequence grows in commit order and is the position. On PostgreSQL transactions commit in
 * any order, so a sequence number taken earlier can become visible after a later one has been
 * read; there the position is the writing transaction's id, and a read returns only changes of
 * transactions older than every transaction still running (`pg_snapshot_xmin`): everything below
 * that horizon is settled, so a change is never skipped (it may wait for a long transaction).
 */
export async function readChanges(
  db: Database,
  portalId: string,
  collection: string,
  since: string | undefined,
  limit: number,
): Promise<{ changes: CollectionChange[]; next: string; more: boolean }> {
  const [position, sequence] = (since ?? '0.0').split('.').map((part) => BigInt(part)) as [bigint, bigint];
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    return db.transaction().execute(async (trx) => {
      const horizon = BigInt(
        (
          await sql<{
            horizon: string;
          }>`select pg_snapshot_xmin(pg_current_snapshot())::text as horizon`.execute(trx)
        ).rows[0]!.horizon,
      );
      const rows = (
        await sql<{ record_id: string; deleted: number | boolean; tx: string; seq: string }>`
          select record_id, deleted, tx::text as tx, seq::text as seq from collection_changes
          where portal_id = ${portalId} and collection = ${collection}
            and (tx > ${position.toString()}::bigint
                 or (tx = ${position.toString()}::bigint and seq > ${sequence.toString()}::bigint))
            and tx < ${horizon.toString()}::bigint
          order by tx, seq
          limit ${limit + 1}`.execute(trx)
      ).rows;
      const more = rows.length > limit;
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      const next = more && last ? `${last.tx}.${last.seq}` : `${horizon > position ? horizon : position}.0`;
      return { changes: page.map(toChange), next: more ? next : keepLater(next, since), more };
    });
  }
  const rows = (
    await sql<{ record_id: string; deleted: number; seq: number }>`
      select record_id, deleted, seq from collection_changes
      where portal_id = ${portalId} and collection = ${collection} and seq > ${Number(sequence)}
      order by seq
      limit ${limit + 1}`.execute(db)
  ).rows;
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    changes: page.map(toChange),
    next: last ? `0.${last.seq}` : `0.${sequence.toString()}`,
    more,
  };
}

/** A cursor never moves back: an empty read after a full page keeps the later of the two. */
function keepLater(next: string, since: string | undefined): string {
  if (!since) return next;
  const [a, b] = next.split('.').map(BigInt) as [bigint, bigint];
  const [c, d] = since.split('.').map(BigInt) as [bigint, bigint];
  return a > c || (a === c && b >= d) ? next : since;
}

function toChange(row: { record_id: string; deleted: number | boolean }): CollectionChange {
  return { recordId: row.record_id, deleted: Number(row.deleted) === 1 || row.deleted === true };
}
