import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { NewPortalRow, PortalRow } from '../../db/schema';

// The portals table is the tenant list itself: a lookup by id is how tenancy is resolved.

export function findPortalById(db: Database, portalId: string): Promise<PortalRow | undefined> {
  return db.selectFrom('portals').selectAll().where('id', '=', portalId).executeTakeFirst();
}

export async function insertPortal(db: Database, row: NewPortalRow): Promise<void> {
  await db.insertInto('portals').values(row).execute();
}

export async function updatePortal(
  db: Database,
  portalId: string,
  patch: { name?: string; timeZone?: string },
): Promise<void> {
  await db
    .updateTable('portals')
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.timeZone !== undefined && { time_zone: patch.timeZone }),
      updated_at: nowIso(),
    })
    .where('id', '=', portalId)
    .execute();
}
