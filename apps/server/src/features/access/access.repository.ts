import type { Schedule } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { nowIso } from '../../db/mappers';

/** How one person reaches one lock: directly and/or through groups. */
export interface AccessPath {
  userId: string;
  deviceId: string;
  direct: boolean;
  groups: { id: string; name: string }[];
}

function mergePaths(
  direct: { user_id: string; device_id: string }[],
  viaGroups: { user_id: string; device_id: string; group_id: string; group_name: string }[],
): AccessPath[] {
  const paths = new Map<string, AccessPath>();
  const pathOf = (userId: string, deviceId: string) => {
    const key = `${userId} ${deviceId}`;
    let path = paths.get(key);
    if (!path) paths.set(key, (path = { userId, deviceId, direct: false, groups: [] }));
    return path;
  };
  for (const row of direct) pathOf(row.user_id, row.device_id).direct = true;
  for (const row of viaGroups)
    pathOf(row.user_id, row.device_id).groups.push({ id: row.group_id, name: row.group_name });
  return [...paths.values()];
}

/** Every access path in a portal, narrowed to one lock and/or one person. */
export async function listAccessPaths(
  db: Database,
  portalId: string,
  where: { deviceId?: string; userId?: string },
): Promise<AccessPath[]> {
  let direct = db
    .selectFrom('device_users as du')
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'du.device_id').onRef('d.portal_id', '=', 'du.portal_id'),
    )
    .select(['du.user_id', 'du.device_id'])
    .where('du.portal_id', '=', portalId)
    .where('d.deleted_at', 'is', null);
  let viaGroups = db
    .selectFrom('group_devices as gd')
    .innerJoin('group_users as gu', (j) =>
      j.onRef('gu.group_id', '=', 'gd.group_id').onRef('gu.portal_id', '=', 'gd.portal_id'),
    )
    .innerJoin('groups as g', (j) =>
      j.onRef('g.id', '=', 'gd.group_id').onRef('g.portal_id', '=', 'gd.portal_id'),
    )
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'gd.device_id').onRef('d.portal_id', '=', 'gd.portal_id'),
    )
    .select(['gu.user_id', 'gd.device_id', 'g.id as group_id', 'g.name as group_name'])
    .where('gd.portal_id', '=', portalId)
    .where('d.deleted_at', 'is', null);
  if (where.deviceId) {
    direct = direct.where('du.device_id', '=', where.deviceId);
    viaGroups = viaGroups.where('gd.device_id', '=', where.deviceId);
  }
  if (where.userId) {
    direct = direct.where('du.user_id', '=', where.userId);
    viaGroups = viaGroups.where('gu.user_id', '=', where.userId);
  }
  const [directRows, groupRows] = await Promise.all([
    direct.execute(),
    viaGroups.orderBy('g.name').execute(),
  ]);
  return mergePaths(directRows, groupRows);
}

export async function linkUserToDevice(db: Database, portalId: string, deviceId: string, userId: string) {
  await db
    .insertInto('device_users')
    .values({ portal_id: portalId, device_id: deviceId, user_id: userId, created_at: nowIso() })
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/**
 * Takes a person's direct access to a lock away and answers the schedule they had there (null: at
 * any time). Without any way left to the lock (no group that reaches it) the schedule goes too: a
 * later grant starts "at any time" instead of bringing back an old limit nobody sees. Every way of
 * taking access away (one person, many at once) goes through here, so none leaves a schedule behind.
 */
export async function unlinkUserFromDevice(
  db: Database,
  portalId: string,
  deviceId: string,
  userId: string,
): Promise<Schedule | null> {
  const schedule =
    (await listSchedules(db, portalId, { deviceId, userId })).get(`${userId} ${deviceId}`) ?? null;
  await db
    .deleteFrom('device_users')
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .where('user_id', '=', userId)
    .execute();
  const stillReaches = (await listAccessPaths(db, portalId, { deviceId, userId })).length > 0;
  if (!stillReaches && schedule) await saveSchedule(db, portalId, deviceId, userId, null);
  return schedule;
}

/** Schedules in a portal, narrowed to one lock and/or one person; keyed "userId deviceId". */
export async function listSchedules(
  db: Database,
  portalId: string,
  where: { deviceId?: string; userId?: string },
): Promise<Map<string, Schedule>> {
  let query = db.selectFrom('user_device_schedules').selectAll().where('portal_id', '=', portalId);
  if (where.deviceId) query = query.where('device_id', '=', where.deviceId);
  if (where.userId) query = query.where('user_id', '=', where.userId);
  const rows = await query.execute();
  return new Map(rows.map((r) => [`${r.user_id} ${r.device_id}`, JSON.parse(r.schedule_json) as Schedule]));
}

/** Sets a person's schedule at a lock; null removes it (at any time). */
export async function saveSchedule(
  db: Database,
  portalId: string,
  deviceId: string,
  userId: string,
  schedule: Schedule | null,
): Promise<void> {
  await db
    .deleteFrom('user_device_schedules')
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .where('user_id', '=', userId)
    .execute();
  if (schedule) {
    await db
      .insertInto('user_device_schedules')
      .values({
        portal_id: portalId,
        device_id: deviceId,
        user_id: userId,
        schedule_json: JSON.stringify(schedule),
        updated_at: nowIso(),
      })
      .execute();
  }
}

/** How many live locks each person of a portal reaches, directly or through groups (people export). */
export async function countLocksPerUser(db: Database, portalId: string): Promise<Map<string, number>> {
  const direct = db
    .selectFrom('device_users as du')
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'du.device_id').onRef('d.portal_id', '=', 'du.portal_id'),
    )
    .select(['du.user_id as user_id', 'du.device_id as device_id'])
    .where('du.portal_id', '=', portalId)
    .where('d.deleted_at', 'is', null);
  const viaGroups = db
    .selectFrom('group_users as gu')
    .innerJoin('group_devices as gd', (j) =>
      j.onRef('gd.group_id', '=', 'gu.group_id').onRef('gd.portal_id', '=', 'gu.portal_id'),
    )
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'gd.device_id').onRef('d.portal_id', '=', 'gd.portal_id'),
    )
    .select(['gu.user_id as user_id', 'gd.device_id as device_id'])
    .where('gu.portal_id', '=', portalId)
    .where('d.deleted_at', 'is', null);
  // UNION (not ALL) drops a lock reached both directly and through a group.
  const rows = await db
    .selectFrom(direct.union(viaGroups).as('paths'))
    .select(['paths.user_id'])
    .select((eb) => eb.fn.countAll().as('locks'))
    .groupBy('paths.user_id')
    .execute();
  return new Map(rows.map((row) => [row.user_id, Number(row.locks)]));
}

/** The names of some of a portal's lockouts, by id. */
export async function findLockoutNames(
  db: Database,
  portalId: string,
  lockoutIds: string[],
): Promise<Map<string, string>> {
  if (lockoutIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('lockouts')
    .select(['id', 'name'])
    .where('portal_id', '=', portalId)
    .where('id', 'in', lockoutIds)
    .execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}
