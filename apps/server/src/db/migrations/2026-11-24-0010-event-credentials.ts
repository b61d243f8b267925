import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  // A key's history lists the lock events where it was used: events by credential, newest first.
  await db.schema
    .createIndex('device_events_portal_credential_idx')
    .on('device_events')
    .columns(['portal_id', 'credential_id', 'occurred_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('device_events_portal_credential_idx').execute();
}
