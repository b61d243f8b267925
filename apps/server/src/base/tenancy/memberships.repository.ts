import type { KeysetListQuery, MembershipStatus, PortalRole } from '@latchkey/shared';
import { sql, type RawBuilder } from 'kysely';
import type { Database } from '../../db/database';
import { afterCursor, cursorValue } from '../../db/keyset';
import { containsText } from '../../db/like';
import { isPostgres, sqliteTrigramQuery } from '../../db/search';
import type { MembershipRow, NewMembershipRow, PortalRow } from '../../db/schema';

/** A person's membership together with the portal it is in. */
export type MembershipWithPortal = Pick<MembershipRow, 'role' | 'status' | 'acting_reseller_id'> & {
  portal: PortalRow;
};

/** Every portal a person belongs to (any status), their own portal first, then oldest first. */
export async function listMembershipsOfUser(db: Database, userId: string): Promise<MembershipWithPortal[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('portals as p', 'p.id', 'm.portal_id')
    .select(['m.role', 'm.status', 'm.acting_reseller_id'])
    .selectAll('p')
    .where('m.user_id', '=', userId)
    .orderBy(sql`case when p.owner_user_id = ${userId} then 0 else 1 end`)
    .orderBy('m.created_at')
    .execute();
  return rows.map(({ role, status, acting_reseller_id, ...portal }) => ({
    role,
    status,
    acting_reseller_id,
    portal,
  }));
}

/**
 * The name a portal shows for a member: its own label (`memberships.first_name`/`last_name`) where
 * it set one, else the person's account name. A person's account name belongs to the person; a
 * portal only ever changes its label. `m` and `u` are the aliases of memberships and users.
 */
export function memberNameColumn(part: 'first_name' | 'last_name', m = 'm', u = 'u'): RawBuilder<string> {
  return sql<string>`coalesce(${sql.ref(`${m}.${part}`)}, ${sql.ref(`${u}.${part}`)})`;
}

/**
 * The portal's people as it shows them (member_directory: email, the portal's label or else the
 * account's name; kept by triggers), narrowed to those matching `search` when given: what the people
 * list and the people picker search. A term of three characters or more goes through the trigram
 * index (db/search.ts); the match itself is always `containsText` on the shown columns.
 */
async function directory(db: Database, portalId: string, search: string | undefined) {
  let query = db.selectFrom('member_directory as d').where('d.portal_id', '=', portalId);
  if (!search) return query;
  query = query.where((eb) =>
    eb.or(['d.email', 'd.first_name', 'd.last_name'].map((column) => containsText(column, search))),
  );
  const match = isPostgres(db) ? undefined : await sqliteTrigramQuery(db, 'search_members', search);
  if (match === undefined) return query;
  return query.where(
    'd.rid',
    'in',
    sql<number>`(select rowid from search_members where search_members match ${match})`,
  );
}

export async function insertMembership(db: Database, row: NewMembershipRow): Promise<void> {
  await db.insertInto('memberships').values(row).execute();
}

const memberSortColumns = {
  email: { column: 'd.email', instant: false },
  firstName: { column: 'd.first_name', instant: false },
  lastName: { column: 'd.last_name', instant: false },
  role: { column: 'm.role', instant: false },
  status: { column: 'm.status', instant: false },
  joinedAt: { column: 'm.created_at', instant: true },
} as const;

export type MemberSortField = keyof typeof memberSortColumns;
/** Exact-match filters, already checked against the allowed values. */
export interface MemberFilters {
  role?: PortalRole;
  status?: MembershipStatus;
}

/**
 * One page of a portal's members, the total matching the query, and the cursor of the page after
 * (keyset paging: `query.after`). Sorting by email or name walks the directory's indexes; a search
 * reads the rows its trigram index offers.
 */
export async function listPortalMembers(
  db: Database,
  portalId: string,
  query: Omit<KeysetListQuery<MemberSortField>, 'filterBy' | 'filterValue'>,
  filters: MemberFilters,
) {
  const sortBy = query.sortBy ?? 'email';
  const { column, instant } = memberSortColumns[sortBy];
  const onDirectory = await directory(db, portalId, query.search);
  // The membership's own columns (role, status, when they joined) need its row; a list sorted by
  // email or name without those filters reads the directory alone, walking its sort index (joined,
  // SQLite drove the query from memberships and sorted all 500,000 of them).
  const needsMembership =
    column.startsWith('m.') || filters.role !== undefined || filters.status !== undefined;
  const joined = needsMembership
    ? onDirectory.innerJoin('memberships as m', (join) =>
        join.onRef('m.portal_id', '=', 'd.portal_id').onRef('m.user_id', '=', 'd.user_id'),
      )
    : onDirectory;
  let filtered = joined;
  if (filters.role) filtered = filtered.where(sql.ref('m.role'), '=', filters.role);
  if (filters.status) filtered = filtered.where(sql.ref('m.status'), '=', filters.status);
  const sort = sql.ref(column);
  const direction = query.descending ? 'desc' : 'asc';
  const sortKey = cursorValue(db, sort, instant ? 'instant' : 'other').as('sort_key');
  let rows: { user_id: string; sort_key: unknown }[];
  let total: number;
  if (query.search) {
    // The matches once (materialized: a search reads the rows its trigram index offers, never the
    // sort index, and PostgreSQL otherwise walked all 500,000 of those for a common term), then
    // both the page and the total from them.
    const found = await db
      .with(
        (cte) => cte('matches').materialized(),
        () => filtered.select(['d.user_id', sort.as('sort_value'), sortKey]),
      )
      .selectFrom('matches')
      .select(['user_id', 'sort_key'])
      .select((eb) => eb.selectFrom('matches').select(eb.fn.countAll().as('n')).as('total'))
      .$if(query.after !== undefined, (page) =>
        page.where(afterCursor(sql.ref('sort_value'), sql.ref('user_id'), query.after!, false)),
      )
      .orderBy('sort_value', direction)
      .orderBy('user_id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute();
    rows = found;
    // An empty page has no row to carry the total: none match, or the page is past the last.
    if (found.length > 0) total = Number(found[0]!.total);
    else if (query.skip === 0 && !query.after) total = 0;
    else
      total = Number((await filtered.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  } else {
    let page = filtered.select(['d.user_id', sortKey]);
    if (query.after) page = page.where(afterCursor(sort, sql.ref('d.user_id'), query.after, false));
    const [found, count] = await Promise.all([
      page
        .orderBy(sort, direction)
        .orderBy('d.user_id', direction)
        .limit(query.limit)
        .offset(query.skip)
        .execute(),
      countMatching(db, portalId, filters),
    ]);
    rows = found;
    total = Number(count.total);
  }
  const byId = new Map(
    (
      await findMembers(
        db,
        portalId,
        rows.map((row) => row.user_id),
      )
    ).map((member) => [member.id, member]),
  );
  const last = rows.length === query.limit ? rows[rows.length - 1] : undefined;
  const next = last && {
    sortBy,
    descending: query.descending,
    value: last.sort_key as string | null,
    id: last.user_id,
  };
  return { rows: rows.map((row) => byId.get(row.user_id)!), total, next };
}

/** The total of a member list without a search: the portal's member counts (member_counts). */
function countMatching(db: Database, portalId: string, filters: MemberFilters) {
  let counts = db.selectFrom('member_counts').where('portal_id', '=', portalId);
  if (filters.role) counts = counts.where('role', '=', filters.role);
  if (filters.status) counts = counts.where('status', '=', filters.status);
  return counts
    .select((eb) => eb.fn.coalesce(eb.fn.sum('members'), eb.lit(0)).as('total'))
    .executeTakeFirstOrThrow();
}

/** How many members a portal has in each role and status (kept by triggers, not counted here). */
export function countMembers(db: Database, portalId: string) {
  return db
    .selectFrom('member_counts')
    .select(['role', 'status', 'members as count'])
    .where('portal_id', '=', portalId)
    .where('members', '>', 0)
    .execute();
}

/** Members of a portal with their account fields; all of them, or those with the given ids. */
export function findMembers(db: Database, portalId: string, userIds?: string[]) {
  let query = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('portals as p', 'p.id', 'm.portal_id')
    .select(['u.id', 'u.email', 'm.role', 'm.status', 'm.created_at'])
    .select([memberNameColumn('first_name').as('first_name'), memberNameColumn('last_name').as('last_name')])
    .select(sql<number>`case when p.owner_user_id = u.id then 1 else 0 end`.as('is_owner'))
    .where('m.portal_id', '=', portalId);
  if (userIds) {
    if (userIds.length === 0) return Promise.resolve([]);
    query = query.where('m.user_id', 'in', userIds);
  }
  return query.orderBy('first_name').orderBy('u.email').execute();
}

export type MemberRecord = Awaited<ReturnType<typeof findMembers>>[number];

/** One member of a portal, or undefined if the person is not in it. */
export async function findMember(db: Database, portalId: string, userId: string) {
  const [member] = await findMembers(db, portalId, [userId]);
  return member;
}

export async function updateMembership(
  db: Database,
  portalId: string,
  userId: string,
  patch: {
    role?: PortalRole;
    status?: MembershipStatus;
    first_name?: string | null;
    last_name?: string | null;
  },
): Promise<void> {
  await db
    .updateTable('memberships')
    .set({ ...patch, updated_at: new Date().toISOString() })
    .where('portal_id', '=', portalId)
    .where('user_id', '=', userId)
    .execute();
}

/** Takes a person out of a portal with every link they had there. */
export async function deleteMembership(db: Database, portalId: string, userId: string): Promise<void> {
  for (const table of ['group_users', 'device_users', 'user_device_schedules'] as const) {
    await db.deleteFrom(table).where('portal_id', '=', portalId).where('user_id', '=', userId).execute();
  }
  await db
    .deleteFrom('memberships')
    .where('portal_id', '=', portalId)
    .where('user_id', '=', userId)
    .execute();
}

/** Up to `limit` members matching a search on name or email, for pickers. */
export async function searchMembers(
  db: Database,
  portalId: string,
  search: string | undefined,
  limit: number,
) {
  return (await directory(db, portalId, search))
    .innerJoin('memberships as m', (join) =>
      join.onRef('m.portal_id', '=', 'd.portal_id').onRef('m.user_id', '=', 'd.user_id'),
    )
    .select(['d.user_id as id', 'd.email', 'm.role', 'm.status', 'd.first_name', 'd.last_name'])
    .orderBy('d.first_name')
    .orderBy('d.last_name')
    .orderBy('d.email')
    .limit(limit)
    .execute();
}
