import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 16, defect 10: a membership added by a reseller while it acted in its customer's portal
// (the portal override) names that reseller, so that it ends when the customer unlinks the reseller
// or stops it acting (docs/decisions.md "Links and access that end"). NULL: added by the portal's
// own people (or platform staff), and kept.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('memberships').addColumn('acting_reseller_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('memberships').dropColumn('acting_reseller_id').execute();
}
