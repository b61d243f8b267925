import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import type { Insertable } from 'kysely';
import type { LockoutRow, LockoutsTable } from '../../db/schema';

// Every query is scoped by portal id.

export function findLockout(
  db: Database,
  portalId: string,
  lockoutId: string,
): Promise<LockoutRow | undefined> {
  return db
    .selectFrom('lockouts')
    .selectAll()
    .where('portal_id', '=', portalId)
    .where('id', '=', lockoutId)
    .executeTakeFirst();
}

export async function listLockouts(
  db: Database,
  portalId: string,
  query: {
    skip: number;
    limit: number;
    search?: string;
    sortBy?: 'from' | 'name' | 'createdAt';
    descending: boolean;
    state?: 'active' | 'upcoming' | 'past';
    now: string;
  },
) {
  let base = db.selectFrom('lockouts').where('portal_id', '=', portalId);
  if (query.search) base = base.where(containsText('name', query.search));
  if (query.state === 'upcoming') base = base.where('starts_at', '>', query.now);
  if (query.state === 'past') base = base.where('ends_at', '<=', query.now);
  if (query.state === 'active') {
    base = base
      .where('starts_at', '<=', query.now)
      .where((eb) => eb.or([eb('ends_at', 'is', null), eb('ends_at', '>', query.now)]));
  }
  const column = { from: 'starts_at', name: 'name', createdAt: 'created_at' } as const;
  const direction = query.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy(column[query.sortBy ?? 'from'], direction)
      .orderBy('id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

/** A lock of a lockout, with the zone its times are read on. */
export interface LockoutDevice {
  id: string;
  name: string;
  timeZone: string;
}

/** The live locks of some lockouts, by lockout id. */
export async function listLockoutDevices(db: Database, portalId: string, lockoutIds: string[]) {
  if (lockoutIds.length === 0) return new Map<string, LockoutDevice[]>();
  const rows = await db
    .selectFrom('lockout_devices as ld')
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'ld.device_id').onRef('d.portal_id', '=', 'ld.portal_id'),
    )
    .select(['ld.lockout_id', 'd.id', 'd.name', 'd.time_zone'])
    .where('ld.portal_id', '=', portalId)
    .where('ld.lockout_id', 'in', lockoutIds)
    .where('d.deleted_at', 'is', null)
    .orderBy('d.name')
    .execute();
  const byLockout = new Map<string, LockoutDevice[]>();
  for (const row of rows) {
    const device = { id: row.id, name: row.name, timeZone: row.time_zone };
    byLockout.set(row.lockout_id, [...(byLockout.get(row.lockout_id) ?? []), device]);
  }
  return byLockout;
}

/** Writes a lockout and replaces its set of locks. */
export async function saveLockout(
  db: Database,
  row: Insertable<LockoutsTable>,
  deviceIds: string[],
  isNew: boolean,
): Promise<void> {
  if (isNew) {
    await db.insertInto('lockouts').values(row).execute();
  } else {
    const { id, portal_id, created_at: _created, ...changes } = row;
    await db
      .updateTable('lockouts')
      .set(changes)
      .where('portal_id', '=', portal_id)
      .where('id', '=', id)
      .execute();
    await db
      .deleteFrom('lockout_devices')
      .where('portal_id', '=', portal_id)
      .where('lockout_id', '=', id)
      .execute();
  }
  // A zone's lockout may cover no lock while its zone is empty.
  if (deviceIds.length === 0) return;
  await db
    .insertInto('lockout_devices')
    .values(deviceIds.map((device_id) => ({ portal_id: row.portal_id, lockout_id: row.id, device_id })))
    .execute();
}

export async function deleteLockout(db: Database, portalId: string, lockoutId: string): Promise<void> {
  await db
    .deleteFrom('lockout_devices')
    .where('portal_id', '=', portalId)
    .where('lockout_id', '=', lockoutId)
    .execute();
  await db.deleteFrom('lockouts').where('portal_id', '=', portalId).where('id', '=', lockoutId).execute();
}
