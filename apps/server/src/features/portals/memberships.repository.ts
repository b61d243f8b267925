import type { ListQuery, MembershipStatus, PortalRole } from '@latchkey/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
import { containsText } from '../../db/like';
import type { MembershipRow, NewMembershipRow, PortalRow } from '../../db/schema';

/** A person's membership together with the portal it is in. */
export type MembershipWithPortal = Pick<MembershipRow, 'role' | 'status'> & { portal: PortalRow };

/** Every portal a person belongs to (any status), their own portal first, then oldest first. */
export async function listMembershipsOfUser(db: Database, userId: string): Promise<MembershipWithPortal[]> {
  const rows = await db
    .selectFrom('memberships as m')
    .innerJoin('portals as p', 'p.id', 'm.portal_id')
    .select(['m.role', 'm.status'])
    .selectAll('p')
    .where('m.user_id', '=', userId)
    .orderBy(sql`case when p.owner_user_id = ${userId} then 0 else 1 end`)
    .orderBy('m.created_at')
    .execute();
  return rows.map(({ role, status, ...portal }) => ({ role, status, portal }));
}

export async function insertMembership(db: Database, row: NewMembershipRow): Promise<void> {
  await db.insertInto('memberships').values(row).execute();
}

const memberSortColumns = {
  email: 'u.email',
  firstName: 'u.first_name',
  lastName: 'u.last_name',
  role: 'm.role',
  status: 'm.status',
  joinedAt: 'm.created_at',
} as const;

export type MemberSortField = keyof typeof memberSortColumns;
/** Exact-match filters, already checked against the allowed values. */
export interface MemberFilters {
  role?: PortalRole;
  status?: MembershipStatus;
}

/** One page of a portal's members, with the total matching the query. */
export async function listPortalMembers(
  db: Database,
  portalId: string,
  query: Omit<ListQuery<MemberSortField>, 'filterBy' | 'filterValue'>,
  filters: MemberFilters,
) {
  let base = membersWithUsers(db, portalId);
  if (query.search) {
    const term = query.search;
    base = base.where((eb) =>
      eb.or(['u.email', 'u.first_name', 'u.last_name'].map((c) => containsText(c, term))),
    );
  }
  if (filters.role) base = base.where('m.role', '=', filters.role);
  if (filters.status) base = base.where('m.status', '=', filters.status);
  const direction = query.descending ? 'desc' : 'asc';
  // Sort and page over narrow rows (the sort key and id), then read the page's 25 members: sorting
  // 50,000 full rows was most of the cost of a large portal's list.
  const sorted = base
    .orderBy(memberSortColumns[query.sortBy ?? 'email'], direction)
    .orderBy('u.id', direction)
    .limit(query.limit)
    .offset(query.skip);
  let page: { id: string }[];
  let total: number;
  if (query.search) {
    // A search scans every member's name and email: one scan gives the page and, by a window
    // count, the total (two scans cost twice as much). An empty first page means no match; past
    // the last page there is no row to carry the total, so it is counted apart.
    const rows = await sorted.select(['u.id', (eb) => eb.fn.countAll().over().as('total')]).execute();
    page = rows;
    if (rows.length > 0) total = Number(rows[0]!.total);
    else if (query.skip === 0) total = 0;
    else total = Number((await countMatching(db, portalId, query.search, filters, base)).total);
  } else {
    const [rows, count] = await Promise.all([
      sorted.select('u.id').execute(),
      countMatching(db, portalId, query.search, filters, base),
    ]);
    page = rows;
    total = Number(count.total);
  }
  const byId = new Map(
    (
      await findMembers(
        db,
        portalId,
        page.map((row) => row.id),
      )
    ).map((member) => [member.id, member]),
  );
  return { rows: page.map((row) => byId.get(row.id)!), total };
}

/** The total of a member list; without a search it needs no user rows, only the memberships index. */
function countMatching(
  db: Database,
  portalId: string,
  search: string | undefined,
  filters: MemberFilters,
  joined: ReturnType<typeof membersWithUsers>,
) {
  if (search) return joined.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
  let memberships = db.selectFrom('memberships as m').where('m.portal_id', '=', portalId);
  if (filters.role) memberships = memberships.where('m.role', '=', filters.role);
  if (filters.status) memberships = memberships.where('m.status', '=', filters.status);
  return memberships.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow();
}

function membersWithUsers(db: Database, portalId: string) {
  return db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .where('m.portal_id', '=', portalId);
}

/** How many members a portal has in each role and status. */
export function countMembers(db: Database, portalId: string) {
  return db
    .selectFrom('memberships')
    .select(['role', 'status'])
    .select((eb) => eb.fn.countAll().as('count'))
    .where('portal_id', '=', portalId)
    .groupBy(['role', 'status'])
    .execute();
}

/** Members of a portal with their account fields; all of them, or those with the given ids. */
export function findMembers(db: Database, portalId: string, userIds?: string[]) {
  let query = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('portals as p', 'p.id', 'm.portal_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'm.role', 'm.status', 'm.created_at'])
    .select(sql<number>`case when p.owner_user_id = u.id then 1 else 0 end`.as('is_owner'))
    .where('m.portal_id', '=', portalId);
  if (userIds) {
    if (userIds.length === 0) return Promise.resolve([]);
    query = query.where('m.user_id', 'in', userIds);
  }
  return query.orderBy('u.first_name').orderBy('u.email').execute();
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
  patch: { role?: PortalRole; status?: MembershipStatus },
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
export function searchMembers(db: Database, portalId: string, search: string | undefined, limit: number) {
  let query = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'm.role', 'm.status'])
    .where('m.portal_id', '=', portalId);
  if (search) {
    query = query.where((eb) =>
      eb.or(['u.email', 'u.first_name', 'u.last_name'].map((c) => containsText(c, search))),
    );
  }
  return query.orderBy('u.first_name').orderBy('u.last_name').orderBy('u.email').limit(limit).execute();
}
