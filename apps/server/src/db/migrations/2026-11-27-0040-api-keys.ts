import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 21, item 1 (docs/decisions.md "API keys"): a portal's keys. Only the public prefix and the
// SHA-256 of the secret are stored (the secret is shown once). A key belongs to its portal, not to
// the admin who made it (created_by is kept for the list, set null if that person's account goes).
// audit_log.api_key_id: a change made with a key is recorded as that key (actor_user_id null).
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull().unique())
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('scopes_json', 'text', (c) => c.notNull())
    .addColumn('allowed_addresses_json', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('expires_at', ts)
    .addColumn('last_used_at', ts)
    .addColumn('last_used_ip', 'text')
    .addColumn('revoked_at', ts)
    .execute();
  await db.schema
    .createIndex('api_keys_portal_idx')
    .on('api_keys')
    .columns(['portal_id', 'created_at'])
    .execute();
  await db.schema.alterTable('audit_log').addColumn('api_key_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('audit_log').dropColumn('api_key_id').execute();
  await db.schema.dropTable('api_keys').execute();
}
