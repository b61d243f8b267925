import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// The entries report (and every keyset page of a portal's events) reads in (occurred_at, id)
// order. With only (portal_id, occurred_at) indexed, PostgreSQL sorted every remaining row of the
// period for each page whenever its statistics were stale (right after a bulk import, before
// autovacuum's analyze): a 100,000-row CSV took 14 s instead of under one. An index in the pages'
// own order needs no sort, whatever the statistics say. It replaces the old one, its prefix.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('device_events_portal_occurred_id_idx')
    .on('device_events')
    .columns(['portal_id', 'occurred_at', 'id'])
    .execute();
  await db.schema.dropIndex('device_events_portal_occurred_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('device_events_portal_occurred_idx')
    .on('device_events')
    .columns(['portal_id', 'occurred_at'])
    .execute();
  await db.schema.dropIndex('device_events_portal_occurred_id_idx').execute();
}
