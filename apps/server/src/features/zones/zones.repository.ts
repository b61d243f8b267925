import type { Insertable } from 'kysely';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import type { ZoneRow, ZonesTable } from '../../db/schema';

// Every query is scoped by portal id; locks are the live ones (not deleted).

export function listZoneRows(db: Database, portalId: string): Promise<ZoneRow[]> {
  return db
    .selectFrom('zones')
    .selectAll()
    .where('portal_id', '=', portalId)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

export function findZone(db: Database, portalId: string, zoneId: string): Promise<ZoneRow | undefined> {
  return db
    .selectFrom('zones')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', zoneId)
    .executeTakeFirst();
}

export async function insertZone(db: Database, row: Insertable<ZonesTable>): Promise<void> {
  await db.insertInto('zones').values(row).execute();
}

export async function updateZone(
  db: Database,
  portalId: string,
  zoneId: string,
  changes: { name: string; description: string; time_zone: string; parent_id: string | null },
): Promise<void> {
  await db
    .updateTable('zones')
    .set({ ...changes, updated_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', zoneId)
    .execute();
}

/**
 * Deletes a zone: its locks become unzoned, its sub-zones move up to its parent, and the lockouts
 * bound to it stay on the locks they cover as plain lockouts.
 */
export async function deleteZone(db: Database, portalId: string, zone: ZoneRow): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('devices')
    .set({ zone_id: null, updated_at: now })
    .where('portal_id', '=', portalId)
    .where('zone_id', '=', zone.id)
    .execute();
  await db
    .updateTable('zones')
    .set({ parent_id: zone.parent_id, updated_at: now })
    .where('portal_id', '=', portalId)
    .where('parent_id', '=', zone.id)
    .execute();
  await db
    .updateTable('lockouts')
    .set({ zone_id: null, updated_at: now })
    .where('portal_id', '=', portalId)
    .where('zone_id', '=', zone.id)
    .execute();
  await db.deleteFrom('zones').where('portal_id', '=', portalId).where('id', '=', zone.id).execute();
}

/** Per zone: its live locks, and those whose time zone is not the zone's. */
export async function countLocksByZone(db: Database, portalId: string) {
  const rows = await db
    .selectFrom('devices as d')
    .innerJoin('zones as z', (j) =>
      j.onRef('z.id', '=', 'd.zone_id').onRef('z.portal_id', '=', 'd.portal_id'),
    )
    .select((eb) => [
      'd.zone_id',
      eb.fn.countAll().as('locks'),
      eb.fn
        .sum<number>(eb.case().when('d.time_zone', '<>', eb.ref('z.time_zone')).then(1).else(0).end())
        .as('other_zone'),
    ])
    .where('d.portal_id', '=', portalId)
    .where('d.deleted_at', 'is', null)
    .groupBy('d.zone_id')
    .execute();
  return new Map(
    rows.map((r) => [r.zone_id!, { locks: Number(r.locks), otherZone: Number(r.other_zone ?? 0) }]),
  );
}

const zoneDeviceColumns = ['id', 'name', 'time_zone', 'online', 'zone_id'] as const;

/** The live locks directly in a zone, by name. */
export function listZoneDevices(db: Database, portalId: string, zoneId: string) {
  return db
    .selectFrom('devices')
    .select(zoneDeviceColumns)
    .where('portal_id', '=', portalId)
    .where('zone_id', '=', zoneId)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** The live locks not in this zone (in another zone or none), by name. */
export function listDevicesOutsideZone(db: Database, portalId: string, zoneId: string) {
  return db
    .selectFrom('devices')
    .select(zoneDeviceColumns)
    .where('portal_id', '=', portalId)
    .where((eb) => eb.or([eb('zone_id', 'is', null), eb('zone_id', '<>', zoneId)]))
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .orderBy('id')
    .limit(10_000)
    .execute();
}

/** Of these ids, the portal's live locks (another portal's or a deleted lock is not among them). */
export async function findLiveDevices(db: Database, portalId: string, deviceIds: readonly string[]) {
  const found: { id: string; name: string; zone_id: string | null; time_zone: string }[] = [];
  for (let i = 0; i < deviceIds.length; i += 1000) {
    found.push(
      ...(await db
        .selectFrom('devices')
        .select(['id', 'name', 'zone_id', 'time_zone'])
        .where('portal_id', '=', portalId)
        .where('id', 'in', deviceIds.slice(i, i + 1000))
        .where('deleted_at', 'is', null)
        .execute()),
    );
  }
  return found;
}

/** Puts locks in a zone (null: in none). */
export async function setDevicesZone(
  db: Database,
  portalId: string,
  deviceIds: readonly string[],
  zoneId: string | null,
): Promise<void> {
  for (let i = 0; i < deviceIds.length; i += 1000) {
    await db
      .updateTable('devices')
      .set({ zone_id: zoneId, updated_at: nowIso() })
      .where('portal_id', '=', portalId)
      .where('id', 'in', deviceIds.slice(i, i + 1000))
      .execute();
  }
}

/** Sets locks' time zone. */
export async function setDevicesTimeZone(
  db: Database,
  portalId: string,
  deviceIds: readonly string[],
  timeZone: string,
): Promise<void> {
  for (let i = 0; i < deviceIds.length; i += 1000) {
    await db
      .updateTable('devices')
      .set({ time_zone: timeZone, updated_at: nowIso() })
      .where('portal_id', '=', portalId)
      .where('id', 'in', deviceIds.slice(i, i + 1000))
      .execute();
  }
}
