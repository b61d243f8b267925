import type { GroupInput, ListQuery } from '@latchkey/shared';
import { memberNameColumn } from '../../base/tenancy/memberships.repository';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import { nowIso } from '../../db/mappers';

// Every query is scoped by portal id.

function groupsWithCounts(db: Database, portalId: string) {
  return db
    .selectFrom('groups as g')
    .selectAll('g')
    .select([
      sql<number>`(select count(*) from group_users gu where gu.portal_id = g.portal_id and gu.group_id = g.id)`.as(
        'user_count',
      ),
      sql<number>`(select count(*) from group_devices gd join devices d on d.id = gd.device_id and d.portal_id = gd.portal_id where gd.portal_id = g.portal_id and gd.group_id = g.id and d.deleted_at is null)`.as(
        'device_count',
      ),
    ])
    .where('g.portal_id', '=', portalId);
}

export type GroupRecord = Awaited<ReturnType<ReturnType<typeof groupsWithCounts>['execute']>>[number];

export function findGroup(db: Database, portalId: string, groupId: string) {
  return groupsWithCounts(db, portalId).where('g.id', '=', groupId).executeTakeFirst();
}

export async function listGroups(
  db: Database,
  portalId: string,
  query: ListQuery<'name' | 'createdAt', 'name'>,
) {
  let base = db.selectFrom('groups as g').where('g.portal_id', '=', portalId);
  const search = query.search ?? (query.filterBy === 'name' ? query.filterValue : undefined);
  if (search) base = base.where(containsText('g.name', search));
  const direction = query.descending ? 'desc' : 'asc';
  const ids = base.select('g.id');
  const [rows, count] = await Promise.all([
    groupsWithCounts(db, portalId)
      .where('g.id', 'in', ids)
      .orderBy(query.sortBy === 'createdAt' ? 'g.created_at' : 'g.name', direction)
      .orderBy('g.id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
}

export async function insertGroup(db: Database, portalId: string, id: string, input: Required<GroupInput>) {
  const now = nowIso();
  await db
    .insertInto('groups')
    .values({
      id,
      portal_id: portalId,
      name: input.name,
      description: input.description,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

export async function updateGroup(
  db: Database,
  portalId: string,
  groupId: string,
  input: Required<GroupInput>,
) {
  await db
    .updateTable('groups')
    .set({ name: input.name, description: input.description, updated_at: nowIso() })
    .where('portal_id', '=', portalId)
    .where('id', '=', groupId)
    .execute();
}

export async function deleteGroup(db: Database, portalId: string, groupId: string) {
  await db
    .deleteFrom('group_users')
    .where('portal_id', '=', portalId)
    .where('group_id', '=', groupId)
    .execute();
  await db
    .deleteFrom('group_devices')
    .where('portal_id', '=', portalId)
    .where('group_id', '=', groupId)
    .execute();
  await db.deleteFrom('groups').where('portal_id', '=', portalId).where('id', '=', groupId).execute();
}

/** The people in a group. */
export function listGroupUsers(db: Database, portalId: string, groupId: string) {
  return db
    .selectFrom('group_users as gu')
    .innerJoin('users as u', 'u.id', 'gu.user_id')
    .innerJoin('memberships as m', (join) =>
      join.onRef('m.user_id', '=', 'gu.user_id').onRef('m.portal_id', '=', 'gu.portal_id'),
    )
    .select(['u.id', 'u.email'])
    .select([memberNameColumn('first_name').as('first_name'), memberNameColumn('last_name').as('last_name')])
    .where('gu.portal_id', '=', portalId)
    .where('gu.group_id', '=', groupId)
    .orderBy('first_name')
    .orderBy('u.email')
    .execute();
}

/** The ids of the locks a group opens: what a person joining or leaving it is about. */
export async function groupLockIds(db: Database, portalId: string, groupId: string): Promise<string[]> {
  return (await listGroupDevices(db, portalId, groupId)).map((device) => device.id);
}

/** The locks a group opens. */
export function listGroupDevices(db: Database, portalId: string, groupId: string) {
  return db
    .selectFrom('group_devices as gd')
    .innerJoin('devices as d', (j) =>
      j.onRef('d.id', '=', 'gd.device_id').onRef('d.portal_id', '=', 'gd.portal_id'),
    )
    .select(['d.id', 'd.name', 'd.time_zone'])
    .where('gd.portal_id', '=', portalId)
    .where('gd.group_id', '=', groupId)
    .where('d.deleted_at', 'is', null)
    .orderBy('d.name')
    .execute();
}

export async function linkGroup(
  db: Database,
  portalId: string,
  groupId: string,
  link: { userId: string } | { deviceId: string },
) {
  const created_at = nowIso();
  const query =
    'userId' in link
      ? db
          .insertInto('group_users')
          .values({ portal_id: portalId, group_id: groupId, user_id: link.userId, created_at })
      : db
          .insertInto('group_devices')
          .values({ portal_id: portalId, group_id: groupId, device_id: link.deviceId, created_at });
  await query.onConflict((oc) => oc.doNothing()).execute();
}

export async function unlinkGroup(
  db: Database,
  portalId: string,
  groupId: string,
  link: { userId: string } | { deviceId: string },
) {
  if ('userId' in link) {
    await db
      .deleteFrom('group_users')
      .where('portal_id', '=', portalId)
      .where('group_id', '=', groupId)
      .where('user_id', '=', link.userId)
      .execute();
  } else {
    await db
      .deleteFrom('group_devices')
      .where('portal_id', '=', portalId)
      .where('group_id', '=', groupId)
      .where('device_id', '=', link.deviceId)
      .execute();
  }
}

/** How many groups a portal has. */
export async function countGroups(db: Database, portalId: string): Promise<number> {
  const row = await db
    .selectFrom('groups')
    .select((eb) => eb.fn.countAll().as('total'))
    .where('portal_id', '=', portalId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
