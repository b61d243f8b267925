import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  // The TOTP secret is kept encrypted (AES-256-GCM, key derived from the server's secret); while
  // totp_enabled_at is null it is a pending secret being set up. totp_last_step refuses a code twice.
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', ts).execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'bigint').execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('recovery_codes_user_idx').on('recovery_codes').column('user_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.alterTable('users').dropColumn('totp_last_step').execute();
  await db.schema.alterTable('users').dropColumn('totp_enabled_at').execute();
  await db.schema.alterTable('users').dropColumn('totp_secret').execute();
}
