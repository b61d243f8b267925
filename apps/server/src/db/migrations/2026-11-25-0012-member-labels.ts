import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// A portal's own name for a member (its label). A person's account name belongs to the person; a
// portal that renames someone changes only what it calls them. NULL follows the account's name.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('memberships').addColumn('first_name', 'text').execute();
  await db.schema.alterTable('memberships').addColumn('last_name', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('memberships').dropColumn('last_name').execute();
  await db.schema.alterTable('memberships').dropColumn('first_name').execute();
}
