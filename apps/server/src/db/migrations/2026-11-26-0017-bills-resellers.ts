import { sql, type Kysely } from 'kysely';
import { timestampType } from '../column-types';

// Frozen: never edit a migration that has shipped; add a new one.
// Bills and invoices, the portal's billing details, and resellers (issue 13 items 3 and 5). Money is
// integer minor units with its currency.
export async function up(db: Kysely<any>): Promise<void> {
  const ts = timestampType(db);

  // The buyer on a portal's bills, as its admins keep it.
  await db.schema
    .createTable('billing_profiles')
    .addColumn('portal_id', 'text', (c) =>
      c.primaryKey().notNull().references('portals.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address_line1', 'text', (c) => c.notNull())
    .addColumn('address_line2', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('postal_code', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('vat_number', 'text')
    .addColumn('email', 'text')
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  // A closed month: immutable once written (the full bill as issued is in bill_json).
  await db.schema
    .createTable('bills')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('month', 'integer', (c) => c.notNull())
    /** Gap-free per issuer; null when there was nothing to pay. */
    .addColumn('invoice_number', 'text')
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('net_minor', 'integer', (c) => c.notNull())
    .addColumn('vat_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('vat_treatment', 'text', (c) => c.notNull())
    .addColumn('vat_minor', 'integer', (c) => c.notNull())
    .addColumn('total_minor', 'integer', (c) => c.notNull())
    /** What the portal's reseller pays for these lock-days; not printed on the customer's bill. */
    .addColumn('wholesale_minor', 'integer', (c) => c.notNull())
    /** The reseller the portal was linked to at the month's end. */
    .addColumn('reseller_id', 'text')
    .addColumn('bill_json', 'text', (c) => c.notNull())
    .addColumn('issued_at', ts, (c) => c.notNull())
    .execute();
  // One bill per portal and month: a second closer finds the month done.
  await db.schema
    .createIndex('bills_portal_month_idx')
    .on('bills')
    .columns(['portal_id', 'year', 'month'])
    .unique()
    .execute();
  await db.schema
    .createIndex('bills_invoice_number_idx')
    .on('bills')
    .column('invoice_number')
    .unique()
    .execute();
  await db.schema
    .createIndex('bills_reseller_month_idx')
    .on('bills')
    .columns(['reseller_id', 'year', 'month'])
    .execute();

  // The last invoice number given per issuer (prefix) and year, raised in the closing transaction.
  await db.schema
    .createTable('invoice_counters')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('invoice_counters_pk', ['issuer', 'year'])
    .execute();

  await db.schema
    .createTable('resellers')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('owner_user_id', 'text', (c) =>
      c.notNull().unique().references('users.id').onDelete('cascade'),
    )
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('vat_number', 'text')
    /** What a customer types to link their portal to this reseller. */
    .addColumn('link_code', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .execute();

  // Which reseller a portal was linked to when: rows are ended (unlinked_at), never deleted.
  await db.schema
    .createTable('reseller_links')
    .addColumn('id', 'text', (c) => c.primaryKey().notNull())
    .addColumn('portal_id', 'text', (c) => c.notNull().references('portals.id').onDelete('cascade'))
    .addColumn('reseller_id', 'text', (c) => c.notNull().references('resellers.id').onDelete('cascade'))
    /** 1: the customer lets the reseller act in the portal (portal override); 0: billing only. */
    .addColumn('allow_acting', 'integer', (c) => c.notNull())
    .addColumn('linked_at', ts, (c) => c.notNull())
    .addColumn('unlinked_at', ts)
    .execute();
  await db.schema
    .createIndex('reseller_links_portal_idx')
    .on('reseller_links')
    .columns(['portal_id', 'linked_at'])
    .execute();
  // A portal has at most one reseller at a time.
  await db.schema
    .createIndex('reseller_links_current_idx')
    .on('reseller_links')
    .column('portal_id')
    .unique()
    .where(sql.ref('unlinked_at'), 'is', null)
    .execute();
  await db.schema
    .createIndex('reseller_links_reseller_idx')
    .on('reseller_links')
    .columns(['reseller_id', 'linked_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['reseller_links', 'resellers', 'invoice_counters', 'bills', 'billing_profiles']) {
    await db.schema.dropTable(table).execute();
  }
}
