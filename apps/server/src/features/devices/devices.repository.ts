import type { KeysetListQuery } from '@latchkey/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { afterCursor, cursorValue } from '../../db/keyset';
import { containsText } from '../../db/like';
import { isPostgres, sqliteTrigramQuery } from '../../db/search';
import { nowIso } from '../../db/mappers';
import type { DeviceRow, DevicesTable } from '../../db/schema';
import type { Insertable } from 'kysely';

// Every query is scoped by portal id and skips deleted locks.

function liveDevices(db: Database, portalId: string) {
  return db.selectFrom('devices').where('portal_id', '=', portalId).where('deleted_at', 'is', null);
}

/** Live locks, only those of these zones with a zone filter (null: in no zone; base/zones zoneFilter). */
function liveDevicesIn(db: Database, portalId: string, zoneIds?: string[] | null) {
  const base = liveDevices(db, portalId);
  if (zoneIds === null) return base.where('zone_id', 'is', null);
  return zoneIds ? base.where('zone_id', 'in', zoneIds) : base;
}

export function findDevice(db: Database, portalId: string, deviceId: string): Promise<DeviceRow | undefined> {
  return liveDevices(db, portalId).selectAll().where('id', '=', deviceId).executeTakeFirst();
}

export async function insertDevice(db: Database, row: Insertable<DevicesTable>): Promise<void> {
  await db.insertInto('devices').values(row).execute();
}

export async function updateDevice(
  db: Database,
  portalId: string,
  deviceId: string,
  patch: { name?: string; timeZone?: string; lowBatteryLevel?: number },
): Promise<void> {
  await db
    .updateTable('devices')
    .set({
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.timeZone !== undefined && { time_zone: patch.timeZone }),
      ...(patch.lowBatteryLevel !== undefined && { low_battery_level: patch.lowBatteryLevel }),
      updated_at: nowIso(),
    })
    .where('portal_id', '=', portalId)
    .where('id', '=', deviceId)
    .execute();
}

/**
 * Marks a lock deleted and removes every way to reach it: links, schedules, and the credentials
 * that only worked there (fingerprints enrolled on it, guest and master codes; keys lose the link).
 * Its row stays for history.
 */
export async function deleteDevice(db: Database, portalId: string, deviceId: string): Promise<void> {
  const now = nowIso();
  await db
    .updateTable('credentials')
    .set({ revoked_at: now })
    .where('portal_id', '=', portalId)
    .where('revoked_at', 'is', null)
    .where('kind', '<>', 'key')
    // A stay's codes are bound to every lock of its listing: they keep working at the others.
    .where((eb) => eb.or([eb('variant', 'is', null), eb('variant', '<>', 'stay')]))
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('credential_devices')
        .select('credential_id')
        .where('portal_id', '=', portalId)
        .where('device_id', '=', deviceId),
    )
    .execute();
  await db
    .updateTable('devices')
    .set({ deleted_at: now, updated_at: now })
    .where('portal_id', '=', portalId)
    .where('id', '=', deviceId)
    .execute();
  await db
    .updateTable('device_invites')
    .set({ deleted_at: now, updated_at: now })
    .where('portal_id', '=', portalId)
    .where('device_id', '=', deviceId)
    .where('deleted_at', 'is', null)
    .execute();
  const links = ['device_users', 'group_devices', 'user_device_schedules', 'credential_devices'] as const;
  for (const table of links) {
    await db.deleteFrom(table).where('portal_id', '=', portalId).where('device_id', '=', deviceId).execute();
  }
}

const sortColumns = {
  name: 'name',
  model: 'model',
  timeZone: 'time_zone',
  battery: 'battery',
  lastSeenAt: 'last_seen_at',
  createdAt: 'created_at',
} as const;
/** Sort keys a lock may lack (never reported): their nulls come first ascending, last descending. */
const nullableSorts: ReadonlySet<DeviceSortField> = new Set(['battery', 'lastSeenAt']);
const instantSorts: ReadonlySet<DeviceSortField> = new Set(['lastSeenAt', 'createdAt']);

export type DeviceSortField = keyof typeof sortColumns;
export type DeviceFilterField = 'model' | 'timeZone' | 'online' | 'zone';

/**
 * One page of a portal's locks, the total matching, and the cursor of the page after (keyset
 * paging: `query.after`). A search of three characters or more goes through the trigram index
 * (db/search.ts).
 */
export async function listDevices(
  db: Database,
  portalId: string,
  query: KeysetListQuery<DeviceSortField, DeviceFilterField>,
  /** The zones of a `zone` filter (base/zones zoneFilter: the zone and its sub-zones; null: none). */
  zoneIds?: string[] | null,
) {
  let base = liveDevices(db, portalId);
  if (query.search) {
    const term = query.search;
    const match = isPostgres(db) ? undefined : await sqliteTrigramQuery(db, 'search_devices', term);
    if (match !== undefined) {
      // The FTS rows drive: unary + keeps SQLite off the portal's index, which it otherwise walked,
      // testing every lock of the portal against them.
      base = db
        .selectFrom('devices')
        .where(sql`+portal_id`, '=', portalId)
        .where(sql`+deleted_at`, 'is', null)
        .where(
          'id',
          'in',
          sql<string>`(select k.device_id from search_device_keys k where k.rid in (select rowid from search_devices where search_devices match ${match}))`,
        );
    }
    base = base.where((eb) => eb.or([containsText('name', term), containsText('serial', term)]));
  }
  if (query.filterBy === 'online') {
    base = base.where('online', '=', query.filterValue === 'true' ? 1 : 0);
  } else if (query.filterBy === 'zone') {
    if (zoneIds === null) base = base.where('zone_id', 'is', null);
    else if (zoneIds) base = base.where('zone_id', 'in', zoneIds);
  } else if (query.filterBy && query.filterValue !== undefined) {
    base = base.where(query.filterBy === 'model' ? 'model' : 'time_zone', '=', query.filterValue as never);
  }
  const sortBy = query.sortBy ?? 'name';
  const sort = sql.ref(sortColumns[sortBy]);
  const nullable = nullableSorts.has(sortBy);
  const direction = query.descending ? 'desc' : 'asc';
  const sortKey = cursorValue(db, sort, instantSorts.has(sortBy) ? 'instant' : 'other').as('sort_key');
  let rows: (DeviceRow & { sort_key: unknown })[];
  let total: number;
  if (query.search) {
    // As the people list: the matches once (materialized), then the page and the total from them.
    const found = await db
      .with(
        (cte) => cte('matches').materialized(),
        () => base.selectAll().select(sortKey),
      )
      .selectFrom('matches')
      .selectAll()
      .select((eb) => eb.selectFrom('matches').select(eb.fn.countAll().as('n')).as('total'))
      .$if(query.after !== undefined, (page) =>
        page.where(afterCursor(sort, sql.ref('id'), query.after!, nullable)),
      )
      // Locks that never reported (no battery, never seen) come first ascending and last descending,
      // the same on SQLite and PostgreSQL (whose NULL ordering differs).
      .$if(nullable, (page) => page.orderBy(sql`${sort} is null`, direction === 'asc' ? 'desc' : 'asc'))
      .orderBy(sort, direction)
      .orderBy('id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute();
    rows = found.map(({ total: _, ...row }) => row as DeviceRow & { sort_key: unknown });
    if (found.length > 0) total = Number(found[0]!.total);
    else if (query.skip === 0 && !query.after) total = 0;
    else total = Number((await base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  } else {
    let page = base.selectAll().select(sortKey);
    if (query.after) page = page.where(afterCursor(sort, sql.ref('id'), query.after, nullable));
    if (nullable) page = page.orderBy(sql`${sort} is null`, direction === 'asc' ? 'desc' : 'asc');
    const [found, count] = await Promise.all([
      page.orderBy(sort, direction).orderBy('id', direction).limit(query.limit).offset(query.skip).execute(),
      base.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    rows = found;
    total = Number(count.n);
  }
  const last = rows.length === query.limit ? rows[rows.length - 1] : undefined;
  const next = last && {
    sortBy,
    descending: query.descending,
    value: last.sort_key as string | number | null,
    id: last.id,
  };
  return { rows: rows.map(({ sort_key: _, ...row }) => row), total, next };
}

/** Locks whose last reported battery is below `level`, or below their own low level. */
export function listLowBatteryDevices(
  db: Database,
  portalId: string,
  level?: number,
  zoneIds?: string[] | null,
) {
  return liveDevicesIn(db, portalId, zoneIds)
    .selectAll()
    .where('battery', 'is not', null)
    .where((eb) =>
      level === undefined ? eb('battery', '<', eb.ref('low_battery_level')) : eb('battery', '<', level),
    )
    .orderBy('battery')
    .execute();
}

/** Every live lock of a portal (for checks that span them all, such as company codes). */
export function listAllDevices(db: Database, portalId: string): Promise<DeviceRow[]> {
  return liveDevices(db, portalId).selectAll().orderBy('name').execute();
}

/** Several locks by id, for checks across a person's locks. */
export function findDevices(db: Database, portalId: string, deviceIds: string[]): Promise<DeviceRow[]> {
  if (deviceIds.length === 0) return Promise.resolve([]);
  return liveDevices(db, portalId).selectAll().where('id', 'in', deviceIds).execute();
}

/** The groups that open a lock. */
export function listGroupsOfDevice(db: Database, portalId: string, deviceId: string) {
  return db
    .selectFrom('group_devices as gd')
    .innerJoin('groups as g', (join) =>
      join.onRef('g.id', '=', 'gd.group_id').onRef('g.portal_id', '=', 'gd.portal_id'),
    )
    .select(['g.id', 'g.name'])
    .where('gd.portal_id', '=', portalId)
    .where('gd.device_id', '=', deviceId)
    .orderBy('g.name')
    .execute();
}

/** How many live locks a portal has, how many are offline and how many run low. */
export async function countDevices(db: Database, portalId: string, zoneIds?: string[] | null) {
  const row = await liveDevicesIn(db, portalId, zoneIds)
    .select((eb) => [
      eb.fn.countAll().as('total'),
      eb.fn.sum(eb.case().when('online', '=', 0).then(1).else(0).end()).as('offline'),
      eb.fn
        .sum(eb.case().when('battery', '<', eb.ref('low_battery_level')).then(1).else(0).end())
        .as('low_battery'),
    ])
    .executeTakeFirstOrThrow();
  return row;
}

/** Up to `limit` locks not connected now, never-seen ones first, then longest unseen. */
export function listOfflineDevices(db: Database, portalId: string, limit: number, zoneIds?: string[] | null) {
  return liveDevicesIn(db, portalId, zoneIds)
    .selectAll()
    .where('online', '=', 0)
    .orderBy(sql`case when last_seen_at is null then 0 else 1 end`)
    .orderBy('last_seen_at')
    .orderBy('name')
    .limit(limit)
    .execute();
}
