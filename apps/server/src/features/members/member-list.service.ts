import { encodeListCursor, MEMBERSHIP_STATUSES, PORTAL_ROLES, type PortalUsersQuery } from '@latchkey/shared';
import type { Database } from '../../db/database';
import { toCount } from '../../db/mappers';
import { AppError } from '../../base/http/errors';
import { listPortalMembers, type MemberFilters } from '../../base/tenancy/memberships.repository';
import { toPortalMember } from '../../base/tenancy/portal.presenter';

// GET portal/users: the member list, paged, searchable, filtered by role or status.

function memberFilters(query: PortalUsersQuery): MemberFilters {
  if (!query.filterBy || query.filterValue === undefined) return {};
  const allowed: readonly string[] = query.filterBy === 'role' ? PORTAL_ROLES : MEMBERSHIP_STATUSES;
  if (!allowed.includes(query.filterValue)) {
    const message = `must be one of ${allowed.join(', ')} when filtering by ${query.filterBy}`;
    throw AppError.badRequest(`filterValue ${message}`, [{ path: 'querystring.filterValue', message }]);
  }
  return { [query.filterBy]: query.filterValue };
}

/** One page of the portal's members. */
export async function listPortalUsers(db: Database, portalId: string, query: PortalUsersQuery) {
  const { rows, total, next } = await listPortalMembers(db, portalId, query, memberFilters(query));
  return {
    items: rows.map(toPortalMember),
    total: toCount(total),
    ...(next && { next: encodeListCursor(next) }),
  };
}
