import { sql, type Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  // One row per periodic background job (the offline sweeps, later feed fetches): the server that
  // moves next_run_at forward first runs the period (jobs/periodic-job.ts); last_done_at is the
  // start of its last completed run, so a run can take what became due since then.
  await db.schema
    .createTable('scheduled_jobs')
    .addColumn('name', 'text', (c) => c.primaryKey().notNull())
    .addColumn('next_run_at', ts, (c) => c.notNull())
    .addColumn('last_done_at', ts)
    .execute();

  // The heartbeat sweep marks offline the connected locks silent since a cutoff: one range read over
  // the connected locks only, instead of a scan of every lock of every portal each few seconds.
  await db.schema
    .createIndex('devices_online_seen_idx')
    .on('devices')
    .column('last_seen_at')
    .where(sql.ref('online'), '=', sql.lit(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('devices_online_seen_idx').execute();
  await db.schema.dropTable('scheduled_jobs').execute();
}
