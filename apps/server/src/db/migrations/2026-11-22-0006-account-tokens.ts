import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  // Tokens behind links in mail (email verification, password reset, invitations).
  // Only a SHA-256 of each token is kept; a token is random (256 bits), so a fast hash suffices.
  await db.schema
    .createTable('account_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    // Invitations name their portal; a person can be invited to several at once.
    .addColumn('portal_id', 'text', (c) => c.references('portals.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // An email change carries the new address until it is confirmed.
    .addColumn('new_email', 'text')
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_tokens_user_idx')
    .on('account_tokens')
    .columns(['user_id', 'purpose'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_tokens').execute();
}
