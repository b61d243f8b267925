import type { Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 16, defect 1: an account someone else caused (a guest's stay) is not created until the
// owner of the address follows a link mailed there. The offer is that link's single-use token
// (kept as SHA-256, like account_tokens), for an address that has no account yet, so it cannot
// name a user (docs/decisions.md "One door for accounts; a guest link proves nothing").
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);
  await db.schema
    .createTable('account_offers')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    /** What the account is offered for: 'stay' (a guest keeps their stay in an account). */
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('portal_id', 'text', (c) => c.references('portals.id').onDelete('cascade'))
    /** The thing the account is linked to once made (the stay's id). */
    .addColumn('subject_id', 'text')
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('expires_at', ts, (c) => c.notNull())
    .addColumn('used_at', ts)
    .addColumn('created_at', ts, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('account_offers_email_idx')
    .on('account_offers')
    .columns(['email', 'purpose'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('account_offers').execute();
}
