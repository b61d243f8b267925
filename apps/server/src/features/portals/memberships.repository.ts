import type { ListQuery, MembershipStatus, PortalRole } from '@latchkey/shared';
import { sql } from 'kysely';
import type { Database } from '../../db/database';
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

/** Escapes LIKE wildcards so a search term matches literally. */
function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** One page of a portal's members, with the total matching the query. */
export async function listPortalMembers(
  db: Database,
  portalId: string,
  query: Omit<ListQuery<MemberSortField>, 'filterBy' | 'filterValue'>,
  filters: MemberFilters,
) {
  let base = db
    .selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .innerJoin('portals as p', 'p.id', 'm.portal_id')
    .where('m.portal_id', '=', portalId);
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where((eb) =>
      eb.or(
        ['u.email', 'u.first_name', 'u.last_name'].map((column) =>
          eb(sql`lower(${sql.ref(column)})`, 'like', sql`${pattern} escape '\\'`),
        ),
      ),
    );
  }
  if (filters.role) base = base.where('m.role', '=', filters.role);
  if (filters.status) base = base.where('m.status', '=', filters.status);
  const direction = query.descending ? 'desc' : 'asc';
  const [rows, count] = await Promise.all([
    base
      .select(['u.id', 'u.email', 'u.first_name', 'u.last_name', 'm.role', 'm.status', 'm.created_at'])
      .select(sql<number>`case when p.owner_user_id = u.id then 1 else 0 end`.as('is_owner'))
      .orderBy(memberSortColumns[query.sortBy ?? 'email'], direction)
      .orderBy('u.id', direction)
      .limit(query.limit)
      .offset(query.skip)
      .execute(),
    base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: count.total };
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
