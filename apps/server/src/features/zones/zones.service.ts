import crypto from 'node:crypto';
import {
  ZONE_LIMIT,
  ZONE_MAX_DEPTH,
  type LockoutRecord,
  type Zone,
  type ZoneDevice,
  type ZoneInput,
  type ZoneLockoutInput,
  type ZoneMove,
  type ZoneMoved,
} from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso, toIso } from '../../db/mappers';
import type { ZoneRow } from '../../db/schema';
import type { ChangeContext } from '../../base/http/access';
import { AppError } from '../../base/http/errors';
import { recordChange } from '../../base/audit/audit.repository';
import { changeAccess } from '../../base/access-changes/touched-locks';
import { followZoneLockouts, locksOfZone } from '../../base/zones/zone-scope';
import { putLockout } from '../lockouts/lockouts.service';
import {
  countLocksByZone,
  deleteZone,
  findLiveDevices,
  findZone,
  insertZone,
  listDevicesOutsideZone,
  listZoneDevices,
  listZoneRows,
  setDevicesTimeZone,
  setDevicesZone,
  updateZone,
} from './zones.repository';

// Zones (issue 21, item 4; docs/decisions.md "Zones"). Admins write; every member reads the zones.

type Counts = Map<string, { locks: number; otherZone: number }>;

/** The depth of each zone (1: top level), walking parents among the portal's zones. */
function depthsOf(rows: readonly Pick<ZoneRow, 'id' | 'parent_id'>[]): Map<string, number> {
  const parentOf = new Map(rows.map((r) => [r.id, r.parent_id]));
  const depths = new Map<string, number>();
  for (const row of rows) {
    let depth = 1;
    let parent = row.parent_id;
    while (parent && depth <= rows.length) {
      depth++;
      parent = parentOf.get(parent) ?? null;
    }
    depths.set(row.id, depth);
  }
  return depths;
}

/** The zone and every zone under it. */
function subtreeOf(rows: readonly Pick<ZoneRow, 'id' | 'parent_id'>[], zoneId: string): string[] {
  const found = [zoneId];
  for (let i = 0; i < found.length; i++) {
    for (const row of rows) if (row.parent_id === found[i]) found.push(row.id);
  }
  return found;
}

function toZone(row: ZoneRow, rows: ZoneRow[], depths: Map<string, number>, counts: Counts | null): Zone {
  const own = counts?.get(row.id);
  return {
    _id: row.id,
    name: row.name,
    description: row.description,
    timeZone: row.time_zone,
    parentId: row.parent_id,
    depth: depths.get(row.id) ?? 1,
    lockCount: counts ? (own?.locks ?? 0) : null,
    totalLockCount: counts
      ? subtreeOf(rows, row.id).reduce((sum, id) => sum + (counts.get(id)?.locks ?? 0), 0)
      : null,
    otherTimeZoneCount: counts ? (own?.otherZone ?? 0) : null,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** The portal's zones as a tree read top-down: each parent, then its sub-zones, by name. */
function inTreeOrder(rows: ZoneRow[]): ZoneRow[] {
  const ordered: ZoneRow[] = [];
  const visit = (parentId: string | null) => {
    for (const row of rows) {
      if (row.parent_id !== parentId) continue;
      ordered.push(row);
      visit(row.id);
    }
  };
  visit(null);
  return ordered;
}

const toZoneDevice = (d: {
  id: string;
  name: string;
  time_zone: string;
  online: number;
  zone_id: string | null;
}): ZoneDevice => ({
  _id: d.id,
  name: d.name,
  timeZone: d.time_zone,
  online: Number(d.online) === 1,
  zoneId: d.zone_id,
});

/** Every zone; lock counts only for admins (a basic user sees the places, not the portal's locks). */
export async function getZones(db: Database, portalId: string, isAdmin: boolean): Promise<Zone[]> {
  const rows = await listZoneRows(db, portalId);
  const counts = isAdmin ? await countLocksByZone(db, portalId) : null;
  const depths = depthsOf(rows);
  return inTreeOrder(rows).map((row) => toZone(row, rows, depths, counts));
}

async function zoneOf(db: Database, portalId: string, zoneId: string, isAdmin: boolean): Promise<Zone> {
  const rows = await listZoneRows(db, portalId);
  const row = rows.find((r) => r.id === zoneId);
  if (!row) throw AppError.notFound('Zone');
  return toZone(row, rows, depthsOf(rows), isAdmin ? await countLocksByZone(db, portalId) : null);
}

export function getZone(db: Database, portalId: string, zoneId: string, isAdmin: boolean): Promise<Zone> {
  return zoneOf(db, portalId, zoneId, isAdmin);
}

async function requireZone(db: Database, portalId: string, zoneId: string): Promise<ZoneRow> {
  const zone = await findZone(db, portalId, zoneId);
  if (!zone) throw AppError.notFound('Zone');
  return zone;
}

const fieldError = (field: string, message: string) =>
  AppError.badRequest(`${field} ${message}`, [{ path: `body.${field}`, message }]);

/**
 * Checks a zone's place in the tree: the parent is one of the portal's zones, not the zone itself or
 * under it, the tree stays ZONE_MAX_DEPTH deep, and no sibling has the same name.
 */
function checkPlace(rows: ZoneRow[], zoneId: string | null, input: Required<ZoneInput>) {
  const parentId = input.parentId;
  if (parentId !== null) {
    if (!rows.some((r) => r.id === parentId)) throw fieldError('parentId', 'is not a zone of this portal');
    if (zoneId && subtreeOf(rows, zoneId).includes(parentId)) {
      throw fieldError('parentId', 'cannot be the zone itself or one of its sub-zones');
    }
  }
  const others = rows.filter((r) => r.id !== zoneId);
  const depths = depthsOf(others);
  const parentDepth = parentId === null ? 0 : (depths.get(parentId) ?? 1);
  // The moved zone's own sub-zones go with it.
  const below = zoneId ? subtreeHeight(rows, zoneId) : 1;
  if (parentDepth + below > ZONE_MAX_DEPTH) {
    throw fieldError(
      'parentId',
      `would nest zones more than ${ZONE_MAX_DEPTH} deep (a site, a building, a floor)`,
    );
  }
  const name = input.name.trim().toLowerCase();
  if (others.some((r) => r.parent_id === parentId && r.name.trim().toLowerCase() === name)) {
    throw AppError.conflict('A zone with this name is already there');
  }
}

/** 1 for a zone without sub-zones, 2 with sub-zones without their own, … */
function subtreeHeight(rows: ZoneRow[], zoneId: string): number {
  const children = rows.filter((r) => r.parent_id === zoneId);
  return 1 + Math.max(0, ...children.map((c) => subtreeHeight(rows, c.id)));
}

const audited = (input: Required<ZoneInput>) => ({
  name: input.name,
  description: input.description,
  timeZone: input.timeZone,
  parentId: input.parentId,
});

export async function createZone(
  db: Database,
  context: ChangeContext,
  input: Required<ZoneInput>,
): Promise<Zone> {
  const id = crypto.randomUUID();
  await db.transaction().execute(async (trx) => {
    const rows = await listZoneRows(trx, context.portalId);
    if (rows.length >= ZONE_LIMIT) throw AppError.conflict(`A portal has at most ${ZONE_LIMIT} zones`);
    checkPlace(rows, null, input);
    const now = nowIso();
    await insertZone(trx, {
      id,
      portal_id: context.portalId,
      parent_id: input.parentId,
      name: input.name,
      description: input.description,
      time_zone: input.timeZone,
      created_at: now,
      updated_at: now,
    });
    await recordChange(trx, context, {
      action: 'zone.create',
      entityType: 'zone',
      entityId: id,
      after: audited(input),
    });
  });
  return zoneOf(db, context.portalId, id, true);
}

/**
 * Saves a zone. A new time zone is not written onto the zone's locks: their schedules run on their
 * own clock, so the admin applies it (applyZoneTimeZone) after seeing how many locks differ. Moving
 * the zone under another changes which zone lockouts cover its locks.
 */
export async function saveZone(
  db: Database,
  context: ChangeContext,
  zoneId: string,
  input: Required<ZoneInput>,
): Promise<Zone> {
  await changeAccess(db, async (trx, touch) => {
    const before = await requireZone(trx, context.portalId, zoneId);
    const rows = await listZoneRows(trx, context.portalId);
    checkPlace(rows, zoneId, input);
    await updateZone(trx, context.portalId, zoneId, {
      name: input.name,
      description: input.description,
      time_zone: input.timeZone,
      parent_id: input.parentId,
    });
    if (before.parent_id !== input.parentId) await followZoneLockouts(trx, context.portalId, touch);
    await recordChange(trx, context, {
      action: 'zone.update',
      entityType: 'zone',
      entityId: zoneId,
      before: {
        name: before.name,
        description: before.description,
        timeZone: before.time_zone,
        parentId: before.parent_id,
      },
      after: audited(input),
    });
  });
  return zoneOf(db, context.portalId, zoneId, true);
}

/** Deletes a zone: its locks are unzoned, its sub-zones move up, its lockouts stay where they are. */
export async function removeZone(db: Database, context: ChangeContext, zoneId: string): Promise<void> {
  await changeAccess(db, async (trx, touch) => {
    const zone = await zoneOf(trx, context.portalId, zoneId, true);
    const row = (await findZone(trx, context.portalId, zoneId))!;
    const unzoned = (await listZoneDevices(trx, context.portalId, zoneId)).map((d) => d.id);
    await deleteZone(trx, context.portalId, row);
    // Lockouts bound to a zone above lose the locks that were here.
    await followZoneLockouts(trx, context.portalId, touch);
    await recordChange(trx, context, {
      action: 'zone.delete',
      entityType: 'zone',
      entityId: zoneId,
      deviceIds: unzoned,
      before: {
        name: zone.name,
        timeZone: zone.timeZone,
        parentId: zone.parentId,
        locksUnzoned: zone.lockCount,
      },
    });
  });
}

export async function getZoneDevices(db: Database, portalId: string, zoneId: string): Promise<ZoneDevice[]> {
  await requireZone(db, portalId, zoneId);
  return (await listZoneDevices(db, portalId, zoneId)).map(toZoneDevice);
}

export async function getDevicesOutsideZone(
  db: Database,
  portalId: string,
  zoneId: string,
): Promise<ZoneDevice[]> {
  await requireZone(db, portalId, zoneId);
  return (await listDevicesOutsideZone(db, portalId, zoneId)).map(toZoneDevice);
}

/**
 * Moves locks into the zone (out of any other: a lock is in one zone at most) and out of it. Every
 * lock must be one of the portal's live locks; a lock named to remove that is not in the zone is a
 * 400, as is a lock named both ways. Zone lockouts follow; with applyTimeZone, the added locks take
 * the zone's time zone.
 */
export async function moveZoneDevices(
  db: Database,
  context: ChangeContext,
  zoneId: string,
  move: Required<ZoneMove>,
): Promise<ZoneMoved> {
  return changeAccess(db, async (trx, touch) => {
    const zone = await requireZone(trx, context.portalId, zoneId);
    const add = [...new Set(move.add)];
    const remove = [...new Set(move.remove)];
    if (add.some((id) => remove.includes(id))) throw fieldError('remove', 'names a lock that add names too');
    const found = await findLiveDevices(trx, context.portalId, [...add, ...remove]);
    if (found.length !== add.length + remove.length) {
      throw fieldError(
        found.filter((d) => add.includes(d.id)).length !== add.length ? 'add' : 'remove',
        'names a lock that is not in this portal',
      );
    }
    const byId = new Map(found.map((d) => [d.id, d]));
    if (remove.some((id) => byId.get(id)!.zone_id !== zoneId)) {
      throw fieldError('remove', 'names a lock that is not in this zone');
    }
    const adding = add.filter((id) => byId.get(id)!.zone_id !== zoneId);
    await setDevicesZone(trx, context.portalId, adding, zoneId);
    await setDevicesZone(trx, context.portalId, remove, null);
    const retimed = move.applyTimeZone ? add.filter((id) => byId.get(id)!.time_zone !== zone.time_zone) : [];
    if (retimed.length > 0) {
      await setDevicesTimeZone(trx, context.portalId, retimed, zone.time_zone);
      // Schedules and lockout times are read on the lock's clock: its set changes.
      await touch(context.portalId, { locks: retimed });
    }
    await followZoneLockouts(trx, context.portalId, touch);
    const name = (id: string) => byId.get(id)!.name;
    await recordChange(trx, context, {
      action: 'zone.devices.move',
      entityType: 'zone',
      entityId: zoneId,
      deviceId: add.length + remove.length === 1 ? (add[0] ?? remove[0]!) : null,
      // Every lock moved in or out, or given the zone's time zone: each one's history shows it.
      deviceIds: [...adding, ...remove, ...retimed],
      before: { zone: zone.name, removed: remove.map(name) },
      after: {
        zone: zone.name,
        added: adding.map((id) => ({ lock: name(id), fromZone: byId.get(id)!.zone_id })),
        timeZone: retimed.length > 0 ? { set: zone.time_zone, locks: retimed.map(name) } : undefined,
      },
    });
    return { added: adding.length, removed: remove.length, timeZoneChanged: retimed.length };
  });
}

/** Gives every lock directly in the zone the zone's time zone (the admin chose to). */
export async function applyZoneTimeZone(db: Database, context: ChangeContext, zoneId: string) {
  return changeAccess(db, async (trx, touch) => {
    const zone = await requireZone(trx, context.portalId, zoneId);
    const locks = (await listZoneDevices(trx, context.portalId, zoneId)).filter(
      (d) => d.time_zone !== zone.time_zone,
    );
    const ids = locks.map((d) => d.id);
    if (ids.length > 0) {
      await setDevicesTimeZone(trx, context.portalId, ids, zone.time_zone);
      await touch(context.portalId, { locks: ids });
      await recordChange(trx, context, {
        action: 'zone.timezone.apply',
        entityType: 'zone',
        entityId: zoneId,
        deviceIds: ids,
        before: { locks: locks.map((d) => ({ lock: d.name, timeZone: d.time_zone })) },
        after: { timeZone: zone.time_zone, locks: locks.map((d) => d.name) },
      });
    }
    return { changed: ids.length };
  });
}

/**
 * Locks out the zone: a real lockout (features/lockouts) bound to the zone, over every lock of the
 * zone and its sub-zones; locks moved in later join it, locks moved out leave it, until it ends.
 */
export async function lockOutZone(
  db: Database,
  context: ChangeContext,
  zoneId: string,
  input: Required<ZoneLockoutInput>,
): Promise<LockoutRecord> {
  await requireZone(db, context.portalId, zoneId);
  const deviceIds = await locksOfZone(db, context.portalId, zoneId);
  if (deviceIds.length === 0) {
    throw AppError.badRequest('The zone has no locks to lock out', [
      { path: 'params.id', message: 'names a zone without locks' },
    ]);
  }
  return putLockout(db, context, null, { ...input, deviceIds }, { zoneId });
}
