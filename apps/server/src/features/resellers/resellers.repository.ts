import type { Database } from '../../db/database';
import type { Insertable } from 'kysely';
import type { ResellerLinksTable, ResellerRow, ResellersTable } from '../../db/schema';

// Resellers and their links to customer portals. A link is ended (unlinked_at), never deleted, so
// "whose customer was this portal at the end of that month" can always be answered.

export function findReseller(db: Database, resellerId: string): Promise<ResellerRow | undefined> {
  return db.selectFrom('resellers').selectAll().where('id', '=', resellerId).executeTakeFirst();
}

export function findResellerOwnedBy(db: Database, userId: string): Promise<ResellerRow | undefined> {
  return db.selectFrom('resellers').selectAll().where('owner_user_id', '=', userId).executeTakeFirst();
}

export function findResellerByCode(db: Database, linkCode: string): Promise<ResellerRow | undefined> {
  return db.selectFrom('resellers').selectAll().where('link_code', '=', linkCode).executeTakeFirst();
}

export async function insertReseller(db: Database, row: Insertable<ResellersTable>): Promise<void> {
  await db.insertInto('resellers').values(row).execute();
}

/** The portal's link in force now (at most one), with its reseller. */
export async function insertLink(db: Database, row: Insertable<ResellerLinksTable>): Promise<void> {
  await db.insertInto('reseller_links').values(row).execute();
}

export async function endLink(db: Database, portalId: string, linkId: string, at: string): Promise<void> {
  await db
    .updateTable('reseller_links')
    .set({ unlinked_at: at })
    .where('portal_id', '=', portalId)
    .where('id', '=', linkId)
    .execute();
}

export async function setLinkActing(
  db: Database,
  portalId: string,
  linkId: string,
  allowActing: boolean,
): Promise<void> {
  await db
    .updateTable('reseller_links')
    .set({ allow_acting: allowActing ? 1 : 0 })
    .where('portal_id', '=', portalId)
    .where('id', '=', linkId)
    .execute();
}

/**
 * The portals linked to a reseller now, with their names, owners' addresses, payment state and
 * lock counts (one query for the customer list, however many customers).
 */
export function listCurrentCustomers(db: Database, resellerId: string) {
  return db
    .selectFrom('reseller_links as l')
    .innerJoin('portals as p', 'p.id', 'l.portal_id')
    .innerJoin('users as u', 'u.id', 'p.owner_user_id')
    .select((eb) => [
      'p.id as portal_id',
      'p.name as portal_name',
      'p.created_at as portal_created_at',
      'p.expire_date',
      'p.stripe_status',
      'u.email as owner_email',
      'l.allow_acting',
      'l.linked_at',
      eb
        .selectFrom('devices as d')
        .select((c) => c.fn.countAll().as('n'))
        .whereRef('d.portal_id', '=', 'p.id')
        .where('d.deleted_at', 'is', null)
        .as('lock_count'),
    ])
    .where('l.reseller_id', '=', resellerId)
    .where('l.unlinked_at', 'is', null)
    .orderBy('p.name')
    .execute();
}

/** The portals linked to a reseller at an instant (a month's end). */
export async function listPortalsLinkedAt(db: Database, resellerId: string, at: string): Promise<string[]> {
  const rows = await db
    .selectFrom('reseller_links')
    .select('portal_id')
    .distinct()
    .where('reseller_id', '=', resellerId)
    .where('linked_at', '<', at)
    .where((eb) => eb.or([eb('unlinked_at', 'is', null), eb('unlinked_at', '>=', at)]))
    .execute();
  return rows.map((row) => row.portal_id);
}

/** The reseller's customers' closed bills of a month (those linked to it at the month's end). */
export function listResellerBills(db: Database, resellerId: string, year: number, month: number) {
  return db
    .selectFrom('bills as b')
    .innerJoin('portals as p', 'p.id', 'b.portal_id')
    .select([
      'b.id',
      'b.portal_id',
      'p.name as portal_name',
      'b.invoice_number',
      'b.net_minor',
      'b.total_minor',
      'b.wholesale_minor',
      'b.currency',
    ])
    .where('b.reseller_id', '=', resellerId)
    .where('b.year', '=', year)
    .where('b.month', '=', month)
    .orderBy('p.name')
    .execute();
}
