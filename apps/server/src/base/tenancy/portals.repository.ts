import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { NewPortalRow, PortalRow } from '../../db/schema';
import { emitDomainEvent } from '../events/domain-events';
import { insertMembership } from './memberships.repository';

// The portals table is the tenant list itself: a lookup by id is how tenancy is resolved.

export function findPortalById(db: Database, portalId: string): Promise<PortalRow | undefined> {
  return db.selectFrom('portals').selectAll().where('id', '=', portalId).executeTakeFirst();
}

/**
 * Every portal is created here, and announced (PortalCreated: the alerts feature adds its default
 * rules). Call in a transaction, so the portal and what listeners add come together or not at all.
 */
export async function insertPortal(db: Database, row: NewPortalRow): Promise<void> {
  await db.insertInto('portals').values(row).execute();
  await emitDomainEvent(db, 'PortalCreated', { portalId: row.id, now: row.created_at });
}

/** A portal someone owns: the portal row and its owner's active admin membership. Call in a transaction. */
export async function insertOwnedPortal(
  db: Database,
  owned: { portalId: string; userId: string; name: string; timeZone: string; now: string },
): Promise<void> {
  await insertPortal(db, {
    id: owned.portalId,
    name: owned.name,
    owner_user_id: owned.userId,
    time_zone: owned.timeZone,
    expire_date: null,
    stripe_status: null,
    created_at: owned.now,
    updated_at: owned.now,
  });
  await insertMembership(db, {
    portal_id: owned.portalId,
    user_id: owned.userId,
    role: 'admin',
    status: 'active',
    created_at: owned.now,
    updated_at: owned.now,
  });
}

/** The portal a person owns, if any (each person owns at most one: their `portalOwned`). */
export function findPortalOwnedBy(db: Database, userId: string): Promise<PortalRow | undefined> {
  return db.selectFrom('portals').selectAll().where('owner_user_id', '=', userId).executeTakeFirst();
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
