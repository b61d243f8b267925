import type { Database } from '../../db/database';
import type { ResellerLinkRow } from '../../db/schema';

// Who a portal's reseller is, read by tenancy (may a reseller act here?) and by billing (whose
// customer was this portal at a month's end). Resellers own the links (features/resellers writes
// them); these reads live in the base so neither tenancy nor billing imports that feature.

export async function findCurrentLink(
  db: Database,
  portalId: string,
): Promise<(ResellerLinkRow & { reseller_name: string; owner_user_id: string }) | undefined> {
  return db
    .selectFrom('reseller_links as l')
    .innerJoin('resellers as r', 'r.id', 'l.reseller_id')
    .selectAll('l')
    .select(['r.name as reseller_name', 'r.owner_user_id'])
    .where('l.portal_id', '=', portalId)
    .where('l.unlinked_at', 'is', null)
    .executeTakeFirst();
}

/** The reseller a portal was linked to at an instant (a month's end), if any. */
export async function findResellerIdAt(db: Database, portalId: string, at: string): Promise<string | null> {
  const row = await db
    .selectFrom('reseller_links')
    .select('reseller_id')
    .where('portal_id', '=', portalId)
    .where('linked_at', '<', at)
    .where((eb) => eb.or([eb('unlinked_at', 'is', null), eb('unlinked_at', '>=', at)]))
    .orderBy('linked_at', 'desc')
    .executeTakeFirst();
  return row?.reseller_id ?? null;
}

/**
 * The reseller owned by this person if it may act in the portal now (linked and allowed), by id;
 * null otherwise.
 */
export async function resellerMayAct(db: Database, userId: string, portalId: string): Promise<string | null> {
  const row = await db
    .selectFrom('reseller_links as l')
    .innerJoin('resellers as r', 'r.id', 'l.reseller_id')
    .select('l.reseller_id')
    .where('l.portal_id', '=', portalId)
    .where('l.unlinked_at', 'is', null)
    .where('l.allow_acting', '=', 1)
    .where('r.owner_user_id', '=', userId)
    .executeTakeFirst();
  return row?.reseller_id ?? null;
}
