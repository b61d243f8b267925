import type { Kysely } from 'kysely';

// Frozen: never edit a migration that has shipped; add a new one.
// Issue 16, defect 5: what one buyer may hold in unpaid checkouts is counted per signed-in person
// and per address, so an order keeps the address it was placed from (docs/decisions.md "Stock holds
// a buyer cannot hoard"). Orders placed before this have none and count for no address.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('orders').addColumn('buyer_ip', 'text').execute();
  await db.schema.createIndex('orders_buyer_ip_idx').on('orders').columns(['buyer_ip', 'status']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_buyer_ip_idx').execute();
  await db.schema.alterTable('orders').dropColumn('buyer_ip').execute();
}
