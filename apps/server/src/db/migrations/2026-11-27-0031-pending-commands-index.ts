import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 19, item 3: the alerts' sweep finds the remote commands that expired unanswered (a lock that
// never carried them out) to tell the host, by status and expiry, without reading every command.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('device_commands_status_expires_idx')
    .on('device_commands')
    .columns(['status', 'expires_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('device_commands_status_expires_idx').execute();
}
