import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';
import { AppError } from '../http/errors';
import type { Touch } from '../access-changes/touched-locks';

// What several features read about zones (features/zones owns them): the lock list, the activity,
// reports and the dashboard filter by a zone and its sub-zones; a lockout bound to a zone covers
// the zone's locks. Here in the base so that those features and features/lockouts import no
// feature of zones (features/zones imports lockouts' service).

/** `filterValue` of a zone filter that asks for the locks in no zone. */
export const NO_ZONE = 'none';

/** A zone and every zone under it (ids), or null when the portal has no such zone. */
export async function zoneWithSubZones(
  db: Database,
  portalId: string,
  zoneId: string,
): Promise<string[] | null> {
  const zones = await db
    .selectFrom('zones')
    .select(['id', 'parent_id'])
    .where('portal_id', '=', portalId)
    .execute();
  if (!zones.some((z) => z.id === zoneId)) return null;
  const found = [zoneId];
  // Zones are nested at most three deep (features/zones): a few passes over a portal's zones.
  for (let i = 0; i < found.length; i++) {
    for (const zone of zones) if (zone.parent_id === found[i]) found.push(zone.id);
  }
  return found;
}

/**
 * The zones a filter names, for a repository's `zone_id in (...)`: the zone and its sub-zones, or
 * null for the locks in no zone (NO_ZONE); undefined without a filter. Another portal's zone, or an
 * unknown one, is a 404, whatever list asked.
 */
export async function zoneFilter(
  db: Database,
  portalId: string,
  zoneId: string | undefined,
): Promise<string[] | null | undefined> {
  if (zoneId === undefined) return undefined;
  if (zoneId === NO_ZONE) return null;
  const zones = await zoneWithSubZones(db, portalId, zoneId);
  if (!zones) throw AppError.notFound('Zone');
  return zones;
}

/** The live locks of a zone and its sub-zones. */
export async function locksOfZone(db: Database, portalId: string, zoneId: string): Promise<string[]> {
  const zones = (await zoneWithSubZones(db, portalId, zoneId)) ?? [];
  if (zones.length === 0) return [];
  const rows = await db
    .selectFrom('devices')
    .select('id')
    .where('portal_id', '=', portalId)
    .where('zone_id', 'in', zones)
    .where('deleted_at', 'is', null)
    .orderBy('name')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Brings every zone-bound lockout of the portal that has not ended onto its zone's locks now (after
 * locks moved in or out, or zones moved), touching the locks it covered and covers. Ended lockouts
 * keep the locks they had. Runs in the caller's changeAccess transaction.
 */
export async function followZoneLockouts(db: Database, portalId: string, touch: Touch): Promise<void> {
  const now = nowIso();
  const lockouts = await db
    .selectFrom('lockouts')
    .select(['id', 'zone_id'])
    .where('portal_id', '=', portalId)
    .where('zone_id', 'is not', null)
    .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', now)]))
    .execute();
  for (const lockout of lockouts) {
    await touch(portalId, { lockout: lockout.id });
    const locks = await locksOfZone(db, portalId, lockout.zone_id!);
    await db
      .deleteFrom('lockout_devices')
      .where('portal_id', '=', portalId)
      .where('lockout_id', '=', lockout.id)
      .execute();
    // In slices, under both databases' bound-parameter limits.
    for (let i = 0; i < locks.length; i += 1000) {
      await db
        .insertInto('lockout_devices')
        .values(
          locks
            .slice(i, i + 1000)
            .map((device_id) => ({ portal_id: portalId, lockout_id: lockout.id, device_id })),
        )
        .execute();
    }
    await touch(portalId, { lockout: lockout.id });
  }
}
