import { BRAND_IDS, type BrandId } from '@latchkey/shared';
import type { Database } from '../../db/database';

// The brand a portal's people see (brief §1: three customer brands): its reseller's, when the
// portal is a reseller's customer and the reseller chose one. Read by features/content (the web
// app's frame), the mails and the invoices; the reseller sets it (features/content).

function asBrand(value: string | null | undefined): BrandId | null {
  return value && (BRAND_IDS as readonly string[]).includes(value) ? (value as BrandId) : null;
}

/** The brand a reseller chose for its customers, if any. */
export async function brandOfReseller(db: Database, resellerId: string | null): Promise<BrandId | null> {
  if (!resellerId) return null;
  const row = await db
    .selectFrom('resellers')
    .select('brand')
    .where('id', '=', resellerId)
    .executeTakeFirst();
  return asBrand(row?.brand);
}

/** The brand of a portal through its current reseller, if the reseller chose one. */
export async function brandOfPortal(db: Database, portalId: string): Promise<BrandId | null> {
  const row = await db
    .selectFrom('reseller_links as l')
    .innerJoin('resellers as r', 'r.id', 'l.reseller_id')
    .select('r.brand')
    .where('l.portal_id', '=', portalId)
    .where('l.unlinked_at', 'is', null)
    .executeTakeFirst();
  return asBrand(row?.brand);
}
