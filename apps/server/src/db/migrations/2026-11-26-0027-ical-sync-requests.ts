import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// iCal imports run as background work (issue 16, defect 2; docs/decisions.md "iCal imports run as
// background work"): "sync now" queues a read on the feed's row instead of reading in the request,
// and the feed keeps what its last read did, for the owner to see once the job has run.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  const feeds = () => db.schema.alterTable('listing_ical_feeds');
  /** The last "sync now": at most one per feed per ICAL_SYNC_NOW_SECONDS (429 with Retry-After). */
  await feeds().addColumn('sync_requested_at', ts).execute();
  /** Who asked, for the change log of the read that follows (null: the periodic job). */
  await feeds().addColumn('sync_requested_by', 'text').execute();
  await feeds().addColumn('sync_requested_ip', 'text').execute();
  /** The request applies a read that is empty where the feed had events. */
  await feeds()
    .addColumn('sync_accept_empty', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  /** What the last read did (JSON: ok, notModified and the counts), shown on the feed. */
  await feeds().addColumn('last_result', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of [
    'last_result',
    'sync_accept_empty',
    'sync_requested_ip',
    'sync_requested_by',
    'sync_requested_at',
  ]) {
    await db.schema.alterTable('listing_ical_feeds').dropColumn(column).execute();
  }
}
