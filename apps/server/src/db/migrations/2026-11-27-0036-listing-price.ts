import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 19, item 8 (docs/decisions.md "A price on the request page"): a listing may have a nightly
// price, in integer minor units of its currency (null: "Price on request"); a stay request keeps the
// total it was quoted (nights × the price when it was asked), so a later price change does not
// rewrite what the guest saw. No payment is taken for stays.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('listings').addColumn('nightly_price', 'integer').execute();
  await db.schema.alterTable('listings').addColumn('currency', 'text').execute();
  await db.schema.alterTable('stays').addColumn('quoted_total', 'integer').execute();
  await db.schema.alterTable('stays').addColumn('quoted_currency', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('stays').dropColumn('quoted_currency').execute();
  await db.schema.alterTable('stays').dropColumn('quoted_total').execute();
  await db.schema.alterTable('listings').dropColumn('currency').execute();
  await db.schema.alterTable('listings').dropColumn('nightly_price').execute();
}
