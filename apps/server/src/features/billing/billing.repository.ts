import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { BillRow, BillsTable, BillingProfileRow } from '../../db/schema';
import type { Insertable } from 'kysely';
import type { BilledDevice } from './bill-computation';

// Bills, billing details and invoice numbers. Portal-owned data is read by portal id; bills are
// inserted once and never updated (there is no update function to misuse).

/** The portal's locks that existed at some moment in [from, until), deleted ones included. */
export async function listBilledDevices(
  db: Database,
  portalId: string,
  from: string,
  until: string,
): Promise<BilledDevice[]> {
  const rows = await db
    .selectFrom('devices')
    .select(['id', 'name', 'created_at', 'deleted_at'])
    .where('portal_id', '=', portalId)
    .where('created_at', '<', until)
    .where((eb) => eb.or([eb('deleted_at', 'is', null), eb('deleted_at', '>', from)]))
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: toIso(row.created_at),
    deletedAt: toIso(row.deleted_at),
  }));
}

export function findBillingProfile(db: Database, portalId: string): Promise<BillingProfileRow | undefined> {
  return db.selectFrom('billing_profiles').selectAll().where('portal_id', '=', portalId).executeTakeFirst();
}

/** Creates or replaces the portal's billing details. */
export async function saveBillingProfile(
  db: Database,
  portalId: string,
  profile: Omit<BillingProfileRow, 'portal_id' | 'updated_at'>,
): Promise<void> {
  const row = { ...profile, portal_id: portalId, updated_at: nowIso() };
  await db
    .insertInto('billing_profiles')
    .values(row)
    .onConflict((oc) => oc.column('portal_id').doUpdateSet({ ...profile, updated_at: row.updated_at }))
    .execute();
}

export function findBillOfMonth(
  db: Database,
  portalId: string,
  year: number,
  month: number,
): Promise<BillRow | undefined> {
  return db
    .selectFrom('bills')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('year', '=', year)
    .where('month', '=', month)
    .executeTakeFirst();
}

export function findBill(db: Database, portalId: string, billId: string): Promise<BillRow | undefined> {
  return db
    .selectFrom('bills')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', billId)
    .executeTakeFirst();
}

/** The portal's closed bills, newest month first. */
export function listBills(db: Database, portalId: string, limit = 120) {
  return db
    .selectFrom('bills')
    .select([
      'id',
      'year',
      'month',
      'invoice_number',
      'issued_at',
      'net_minor',
      'vat_minor',
      'total_minor',
      'currency',
    ])
    .where('portal_id', '=', portalId)
    .orderBy('year', 'desc')
    .orderBy('month', 'desc')
    .limit(limit)
    .execute();
}

export async function insertBill(db: Database, row: Insertable<BillsTable>): Promise<void> {
  await db.insertInto('bills').values(row).execute();
}

/**
 * The next invoice number of an issuer in a year, taken in the caller's transaction: the counter
 * row is raised with one UPDATE, which PostgreSQL holds locked until the transaction ends, so
 * concurrent closers take turns, and a closing that rolls back gives its number back (no gaps).
 */
export async function takeInvoiceNumber(db: Database, issuer: string, year: number): Promise<number> {
  await db
    .insertInto('invoice_counters')
    .values({ issuer, year, last_number: 0 })
    .onConflict((oc) => oc.columns(['issuer', 'year']).doNothing())
    .execute();
  const row = await db
    .updateTable('invoice_counters')
    .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
    .where('issuer', '=', issuer)
    .where('year', '=', year)
    .returning('last_number')
    .executeTakeFirstOrThrow();
  return Number(row.last_number);
}

/** Portals that existed before `monthEnd` and have no bill for the month yet. */
export async function listPortalsToClose(
  db: Database,
  year: number,
  month: number,
  monthEnd: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('portals as p')
    .select('p.id')
    .where('p.created_at', '<', monthEnd)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('bills as b')
            .select('b.id')
            .whereRef('b.portal_id', '=', 'p.id')
            .where('b.year', '=', year)
            .where('b.month', '=', month),
        ),
      ),
    )
    .orderBy('p.id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}
