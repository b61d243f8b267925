import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import type { ProductRow, ProductsTable } from '../../db/schema';

// The catalogue is the platform's, not a portal's: products are read by anyone, changed by staff.

export function listActiveProducts(db: Database): Promise<ProductRow[]> {
  return db
    .selectFrom('products')
    .selectAll()
    .where('active', '=', 1)
    .orderBy('sort_order')
    .orderBy('name')
    .execute();
}

export function listAllProducts(db: Database): Promise<ProductRow[]> {
  return db.selectFrom('products').selectAll().orderBy('sort_order').orderBy('name').execute();
}

export function findProduct(db: Database, id: string): Promise<ProductRow | undefined> {
  return db.selectFrom('products').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findActiveProducts(db: Database, ids: string[]): Promise<ProductRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return db.selectFrom('products').selectAll().where('id', 'in', ids).where('active', '=', 1).execute();
}

/** Adds or replaces a catalogue entry by id (the catalogue seed); stock is left alone when it exists. */
export async function upsertProduct(db: Database, row: Insertable<ProductsTable>): Promise<void> {
  await db
    .insertInto('products')
    .values(row)
    .onConflict((oc) =>
      oc.column('id').doUpdateSet({
        name: row.name,
        kind: row.kind,
        summary: row.summary,
        description: row.description,
        image: row.image,
        price: row.price,
        currency: row.currency,
        pack_size: row.pack_size,
        lock_model: row.lock_model ?? null,
        active: row.active,
        sort_order: row.sort_order,
        updated_at: row.updated_at,
      }),
    )
    .execute();
}

/**
 * Holds `quantity` units for an unpaid checkout, in one statement: it succeeds only while that many
 * are available (on hand less held), so two buyers can never hold the last unit both.
 */
export async function reserveStock(db: Database, productId: string, quantity: number): Promise<boolean> {
  const result = await db
    .updateTable('products')
    .set((eb) => ({ stock_reserved: eb('stock_reserved', '+', quantity) }))
    .where('id', '=', productId)
    .where((eb) => eb(eb('stock_on_hand', '-', eb.ref('stock_reserved')), '>=', quantity))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Lets held units go again (a checkout canceled or expired). */
export async function releaseStock(db: Database, productId: string, quantity: number): Promise<void> {
  await db
    .updateTable('products')
    .set((eb) => ({ stock_reserved: eb('stock_reserved', '-', quantity) }))
    .where('id', '=', productId)
    .execute();
}

/** Held units were paid for: they leave the shelf. `held: false`: they were no longer held. */
export async function takeStock(
  db: Database,
  productId: string,
  quantity: number,
  held: boolean,
): Promise<void> {
  await db
    .updateTable('products')
    .set((eb) => ({
      stock_on_hand: eb('stock_on_hand', '-', quantity),
      ...(held && { stock_reserved: eb('stock_reserved', '-', quantity) }),
    }))
    .where('id', '=', productId)
    .execute();
}

export async function setStockOnHand(db: Database, productId: string, onHand: number): Promise<void> {
  await db
    .updateTable('products')
    .set({ stock_on_hand: onHand, updated_at: new Date().toISOString() })
    .where('id', '=', productId)
    .execute();
}
